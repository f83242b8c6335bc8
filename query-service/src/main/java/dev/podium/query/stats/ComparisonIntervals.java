package dev.podium.query.stats;

import dev.podium.query.data.CellQueries;
import dev.podium.query.view.ComparisonView;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Ratio intervals for a comparison matrix, from the counted (completed, valid, not retracted) runs of each device under
 * each column's key: their per-repetition values, or their means from three runs on ({@link Samples}); see
 * {@link RatioEstimator#estimateClosedForm} for the method.
 */
@ApplicationScoped
public class ComparisonIntervals {

    static final String PUBLISHED = "published figure without per-repetition values: no interval";
    static final String TOO_FEW = "fewer than two repetitions on one side: no interval";
    public static final String CANNOT =
            "the interval cannot be computed: the values are too far apart for double precision";
    private static final LogSample NONE = LogSample.of(new double[0]);
    /** The most configuration values read for one matrix: every setting of a few dozen cells, bounded. */
    private static final int MAX_CONFIG_VALUES = 5000;

    private final CellQueries cells;

    public ComparisonIntervals(CellQueries cells) {
        this.cells = cells;
    }

    /** The interval and the verdict at {@code margin} of every ratio of the view's matrix. */
    public List<RatioCell> of(ComparisonView view, Margin margin) {
        if (view.columns().isEmpty() || view.baseline() == null || view.query().metric() == null) {
            return List.of();
        }
        Map<String, Map<String, LogSample>> samples = new HashMap<>();
        cells.intervals(
                        view.columns().stream()
                                .map(ComparisonView.Column::keyId)
                                .toList(),
                        view.query().metric())
                .forEach(c ->
                        samples.computeIfAbsent(c.keyId(), k -> new HashMap<>()).put(c.deviceId(), c.sample()));
        // Each column's samples by device, and the baseline's side of each column, looked up once, not per cell.
        List<ComparisonView.Column> columns = view.columns();
        List<Map<String, LogSample>> byColumn = new ArrayList<>(columns.size());
        LogSample[] baseline = new LogSample[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            Map<String, LogSample> column = samples.getOrDefault(columns.get(i).keyId(), Map.of());
            byColumn.add(column);
            baseline[i] = column.getOrDefault(view.baseline(), NONE);
        }
        Sides sides = sides(view);
        List<RatioCell> out = new ArrayList<>();
        for (ComparisonView.Row row : view.rows()) {
            if (row.baseline()) {
                continue;
            }
            List<ComparisonView.Cell> cells = row.cells();
            for (int i = 0; i < cells.size(); i++) {
                ComparisonView.Cell cell = cells.get(i);
                if (cell.ratio() == null) {
                    continue;
                }
                if (!"measured".equals(row.source())) {
                    out.add(new RatioCell(
                            row.deviceId(),
                            row.source(),
                            cell.keyId(),
                            null,
                            null,
                            PUBLISHED,
                            List.of(),
                            null,
                            null,
                            null,
                            null));
                    continue;
                }
                out.add(cell(
                        row,
                        cell.keyId(),
                        RatioEstimator.difference(
                                byColumn.get(i).getOrDefault(row.deviceId(), NONE), baseline[i], view.lowerIsBetter()),
                        margin,
                        sides.of(cell.keyId(), row.deviceId(), view.baseline())));
            }
        }
        return out;
    }

    private static RatioCell cell(
            ComparisonView.Row row, String keyId, Optional<LogDifference> difference, Margin margin, Against against) {
        RatioInterval r = difference.map(RatioEstimator::interval).orElse(null);
        boolean computable = r != null && RatioEstimator.computable(r);
        return new RatioCell(
                row.deviceId(),
                row.source(),
                keyId,
                computable ? r : null,
                computable ? Equivalence.of(difference.get(), margin) : null,
                r == null ? TOO_FEW : computable ? r.verdict() : CANNOT,
                against.differences(),
                against.runs(),
                against.baselineRuns(),
                against.powerCap(),
                against.baselinePowerCap());
    }

    /**
     * What a cell's device side holds against the baseline's under the cell's key: configuration and runs, and its runs
     * under a lowered power limit and the baseline's (null when none).
     */
    private record Against(
            List<ConfigDifference> differences,
            RunTally runs,
            RunTally baselineRuns,
            CellQueries.PowerCap powerCap,
            CellQueries.PowerCap baselinePowerCap) {}

    /** A device under a key. */
    private record Side(String keyId, String deviceId) {}

    /** The configuration values and run tallies of every side of a matrix, read once. */
    private record Sides(
            Map<Side, Map<String, Set<String>>> configurations,
            Map<Side, RunTally> tallies,
            Map<Side, CellQueries.PowerCap> caps) {

        Against of(String keyId, String deviceId, String baseline) {
            Side side = new Side(keyId, deviceId);
            Side base = new Side(keyId, baseline);
            return new Against(
                    ConfigDifference.between(
                            configurations.getOrDefault(side, Map.of()), configurations.getOrDefault(base, Map.of())),
                    tallies.getOrDefault(side, RunTally.NONE),
                    tallies.getOrDefault(base, RunTally.NONE),
                    caps.get(side),
                    caps.get(base));
        }
    }

    private Sides sides(ComparisonView view) {
        List<String> keyIds =
                view.columns().stream().map(ComparisonView.Column::keyId).toList();
        List<String> devices = view.rows().stream()
                .filter(r -> "measured".equals(r.source()))
                .map(ComparisonView.Row::deviceId)
                .distinct()
                .toList();
        Map<Side, Map<String, Set<String>>> configurations = new HashMap<>();
        cells.configurations(keyIds, devices, MAX_CONFIG_VALUES)
                .forEach(v -> configurations
                        .computeIfAbsent(new Side(v.keyId(), v.deviceId()), s -> new HashMap<>())
                        .computeIfAbsent(v.setting(), s -> new TreeSet<>())
                        .add(v.value()));
        Map<Side, List<CellQueries.RunOutcome>> outcomes = new HashMap<>();
        cells.outcomes(keyIds, devices)
                .forEach(o -> outcomes.computeIfAbsent(new Side(o.keyId(), o.deviceId()), s -> new ArrayList<>())
                        .add(o));
        Map<Side, RunTally> tallies = new HashMap<>();
        outcomes.forEach((side, list) -> tallies.put(side, tally(list)));
        Map<Side, CellQueries.PowerCap> caps = new HashMap<>();
        cells.facts(keyIds, view.query().metric()).stream()
                .filter(f -> f.powerCap() != null)
                .forEach(f -> caps.put(new Side(f.keyId(), f.deviceId()), f.powerCap()));
        return new Sides(configurations, tallies, caps);
    }

    private static RunTally tally(List<CellQueries.RunOutcome> outcomes) {
        int attempted = outcomes.stream().mapToInt(CellQueries.RunOutcome::runs).sum();
        int counted = outcomes.stream()
                .filter(o -> CellQueries.COUNTED.equals(o.outcome()))
                .mapToInt(CellQueries.RunOutcome::runs)
                .sum();
        return new RunTally(
                attempted,
                counted,
                outcomes.stream()
                        .filter(o -> !CellQueries.COUNTED.equals(o.outcome()))
                        .map(o -> new RunTally.LeftOut(o.outcome(), o.runs()))
                        .toList());
    }
}
