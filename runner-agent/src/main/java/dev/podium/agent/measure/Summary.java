package dev.podium.agent.measure;

import dev.podium.agent.parse.ParsedMetric;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Percentiles;
import dev.podium.events.model.Scope;
import dev.podium.events.model.Statistics;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.model.WorkPerUnit;
import dev.podium.events.validate.ValueChecks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns the metrics of each repetition into per-metric raw values with statistics, and checks the run's validity. */
public final class Summary {

    /** Per-request or per-step values pooled over the repetitions for a metric's percentiles, at most. */
    static final int MAX_POOLED = 1_000_000;

    private Summary() {}

    /**
     * One {@link Metric} per name found in every repetition; values in repetition order; percentiles of the per-request
     * or per-step samples of all repetitions where there are two or more.
     */
    public static List<Metric> metrics(List<List<ParsedMetric>> repetitions, boolean warmupExcluded) {
        return metrics(repetitions, warmupExcluded, WorkPerUnit.Basis.DECLARED);
    }

    /**
     * As {@link #metrics(List, boolean)}, each metric stating the work per unit its first repetition states, on
     * {@code basis}: a shipped workload computes its figures, anything else only declares them.
     */
    public static List<Metric> metrics(
            List<List<ParsedMetric>> repetitions, boolean warmupExcluded, WorkPerUnit.Basis basis) {
        Map<String, List<ParsedMetric>> byName = new LinkedHashMap<>();
        for (List<ParsedMetric> rep : repetitions) {
            for (ParsedMetric m : rep) {
                byName.computeIfAbsent(m.name(), k -> new ArrayList<>()).add(m);
            }
        }
        List<Metric> out = new ArrayList<>();
        for (Map.Entry<String, List<ParsedMetric>> e : byName.entrySet()) {
            if (e.getValue().size() != repetitions.size()) {
                continue;
            }
            List<Double> values = e.getValue().stream().map(ParsedMetric::value).toList();
            if (values.stream().anyMatch(v -> v < 0)) {
                continue; // the contract's values are non-negative; a negative loss or offset is not a benchmark result
            }
            ParsedMetric first = e.getValue().get(0);
            List<Double> pooled = e.getValue().stream()
                    .flatMap(m -> m.samples().stream())
                    .limit(MAX_POOLED)
                    .toList();
            out.add(new Metric(
                    first.name(),
                    first.unit(),
                    first.direction(),
                    Scope.SYSTEM,
                    warmupExcluded,
                    values,
                    Statistics.of(values),
                    pooled.size() >= 2 ? Percentiles.of(pooled) : null,
                    first.work() == null
                            ? null
                            : new WorkPerUnit(first.work().flops(), first.work().bytes(), basis)));
        }
        return out;
    }

    public static List<ValidityCheck> validity(
            List<Metric> metrics, String primary, int repetitionsWanted, int repetitionsDone, boolean warmupExcluded) {
        return validity(
                metrics,
                primary,
                repetitionsWanted,
                repetitionsDone,
                warmupExcluded ? WarmupCheck.separated() : WarmupCheck.notSeparated());
    }

    /** The checks with {@code warmup} as the {@value WarmupCheck#NAME} check (see {@link WarmupCheck}). */
    public static List<ValidityCheck> validity(
            List<Metric> metrics, String primary, int repetitionsWanted, int repetitionsDone, ValidityCheck warmup) {
        List<ValidityCheck> checks = new ArrayList<>();
        checks.add(ValueChecks.repetitions(repetitionsDone, repetitionsWanted));
        checks.add(warmup);
        metrics.stream()
                .filter(m -> m.name().equals(primary))
                .findFirst()
                .ifPresentOrElse(
                        m -> {
                            checks.add(ValueChecks.cv(m));
                            checks.add(ValueChecks.positiveFinite(m));
                        },
                        () -> checks.add(new ValidityCheck("primary_metric_present", false, primary + " not found")));
        return checks;
    }
}
