package dev.podium.query.stats;

import dev.podium.query.chart.Chart;
import dev.podium.query.chart.LineCharts;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.Queries;
import dev.podium.query.view.Labels;
import dev.podium.query.view.Links;
import dev.podium.query.view.NotFound;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Histories and their steps: one history at a time, and the newest steps of every history for the regressions page and
 * feed. Steps are the rows ingest stores after each batch (see {@link HistoryQueries}); a history's fitted levels are the
 * means of its points between them.
 */
@ApplicationScoped
public class HistoryService {

    public static final List<String> KINDS = List.of("regressions", "improvements", "all");
    public static final int MAX_LIMIT = 500;
    private static final int MAX_TEXT = 256;
    private static final DateTimeFormatter DAY =
            DateTimeFormatter.ofPattern("MM-dd").withZone(ZoneOffset.UTC);

    private final HistoryQueries stats;
    private final Queries queries;

    public HistoryService(HistoryQueries stats, Queries queries) {
        this.stats = stats;
        this.queries = queries;
    }

    public static String historyLink(String keyId, String metric, String deviceId) {
        return Links.to("/history")
                .param("key", keyId)
                .param("metric", metric)
                .param("device", deviceId)
                .build();
    }

    /** The history of a key, metric and device; empty when the key is unknown or an argument is missing or oversized. */
    public Optional<HistoryView> history(String keyId, String metric, String deviceId) {
        if (!usable(keyId) || !usable(metric) || !usable(deviceId)) {
            return Optional.empty();
        }
        Optional<KeyRow> key = queries.key(keyId);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        List<HistoryQueries.HistoryRow> rows = stats.history(keyId, metric, deviceId);
        String unit = rows.isEmpty() ? null : rows.get(0).unit();
        String direction = rows.isEmpty() ? null : rows.get(0).direction();
        double[] y = rows.stream().mapToDouble(HistoryQueries.HistoryRow::mean).toArray();
        List<Change> changes = stats.changes(keyId, metric, deviceId).stream()
                .map(HistoryService::change)
                .toList();
        Set<UUID> stepRuns = changes.stream().map(Change::runId).collect(Collectors.toSet());
        double[] level = levels(rows, stepRuns);
        List<HistoryView.Point> points = points(rows, level, stepRuns);
        List<HistoryView.Version> versions = versions(rows, Labels.lowerIsBetter(direction));
        return Optional.of(new HistoryView(
                keyId,
                key.get().canonical(),
                key.get().benchmark(),
                metric,
                deviceId,
                Labels.device(deviceId),
                unit,
                direction,
                stats.state().method(),
                points,
                changes,
                versions,
                chart(metric, unit, rows, y, level)));
    }

    /** A point per run, marked where a step starts (never at the first run). */
    private static List<HistoryView.Point> points(
            List<HistoryQueries.HistoryRow> rows, double[] level, Set<UUID> stepRuns) {
        List<HistoryView.Point> points = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            HistoryQueries.HistoryRow r = rows.get(i);
            points.add(new HistoryView.Point(
                    i,
                    r.runId(),
                    Links.run(r.runId()),
                    r.startedAt(),
                    r.frameworkVersion(),
                    r.mean(),
                    r.n(),
                    level[i],
                    i > 0 && stepRuns.contains(r.runId())));
        }
        return points;
    }

    /**
     * The runs by framework version, in order of each version's first run, each compared with the one before by the
     * comparison's interval (Welch's t on logs, from exact sums).
     */
    static List<HistoryView.Version> versions(List<HistoryQueries.HistoryRow> rows, boolean lower) {
        Map<String, List<HistoryQueries.HistoryRow>> byVersion = rows.stream()
                .collect(Collectors.groupingBy(
                        r -> r.frameworkVersion() == null ? "(not stated)" : r.frameworkVersion(),
                        LinkedHashMap::new,
                        Collectors.toList()));
        List<Map.Entry<String, List<HistoryQueries.HistoryRow>>> ordered = new ArrayList<>(byVersion.entrySet());
        ordered.sort(Comparator.comparing(e -> e.getValue().get(0).startedAt()));
        List<HistoryView.Version> versions = new ArrayList<>();
        LogSample previous = null;
        for (Map.Entry<String, List<HistoryQueries.HistoryRow>> e : ordered) {
            List<HistoryQueries.HistoryRow> rs = e.getValue();
            LogSample sample = sample(rs);
            RatioInterval vs = previous == null
                    ? null
                    : RatioEstimator.estimateClosedForm(sample, previous, lower).orElse(null);
            versions.add(new HistoryView.Version(
                    e.getKey(),
                    rs.size(),
                    rs.stream()
                            .mapToDouble(HistoryQueries.HistoryRow::mean)
                            .average()
                            .orElse(Double.NaN),
                    rs.get(0).startedAt(),
                    rs.get(rs.size() - 1).startedAt(),
                    vs));
            previous = sample;
        }
        return versions;
    }

    /**
     * A version's side of an interval, as {@link Samples} defines it: its runs' per-repetition values while it has
     * fewer than {@link Samples#RUN_MEANS_FROM} runs, its run means from then on.
     */
    private static LogSample sample(List<HistoryQueries.HistoryRow> runs) {
        if (runs.size() >= Samples.RUN_MEANS_FROM) {
            List<BigDecimal> logs = runs.stream()
                    .map(HistoryQueries.HistoryRow::meanLog)
                    .filter(Objects::nonNull)
                    .toList();
            return LogSample.ofSums(
                    logs.size(),
                    logs.stream().reduce(BigDecimal.ZERO, BigDecimal::add),
                    logs.stream().map(x -> x.multiply(x)).reduce(BigDecimal.ZERO, BigDecimal::add));
        }
        return LogSample.ofSums(
                runs.stream().mapToInt(HistoryQueries.HistoryRow::valuesN).sum(),
                runs.stream().map(HistoryQueries.HistoryRow::valuesLogSum).reduce(BigDecimal.ZERO, BigDecimal::add),
                runs.stream()
                        .map(HistoryQueries.HistoryRow::valuesLogSumSquares)
                        .reduce(BigDecimal.ZERO, BigDecimal::add));
    }

    /** The run means and fitted levels per run, about eight runs labelled by their day. */
    private static Chart chart(
            String metric, String unit, List<HistoryQueries.HistoryRow> rows, double[] y, double[] level) {
        int every = Math.max(1, rows.size() / 8);
        List<String> labels = new ArrayList<>();
        List<double[]> valuePoints = new ArrayList<>();
        List<double[]> levelPoints = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            labels.add(i % every == 0 ? DAY.format(rows.get(i).startedAt()) : "");
            valuePoints.add(new double[] {i, y[i]});
            levelPoints.add(new double[] {i, level[i]});
        }
        return LineCharts.categorical(
                metric + " per run",
                unit,
                labels,
                List.of(
                        new LineCharts.Series("run mean", valuePoints),
                        new LineCharts.Series("fitted level", levelPoints)));
    }

    /** Steps across every history, or one benchmark's (404 where there is none of that name), newest first. */
    public RegressionsView regressions(String kind, String benchmark, String limit) {
        String k = kind != null && KINDS.contains(kind) ? kind : "regressions";
        int n = parseLimit(limit);
        String b = benchmark == null || benchmark.isBlank() ? null : benchmark;
        if (b != null && !queries.benchmarkExists(b)) {
            throw NotFound.benchmark(b);
        }
        List<String> benchmarks = queries.benchmarks();
        String stored = switch (k) {
            case "regressions" -> Change.REGRESSION;
            case "improvements" -> Change.IMPROVEMENT;
            default -> null;
        };
        List<Change> changes =
                stats.newest(stored, b, n).stream().map(HistoryService::change).toList();
        HistoryQueries.State state = stats.state();
        return new RegressionsView(k, b, benchmarks, n, state.method(), state.histories(), state.points(), changes);
    }

    private static Change change(HistoryQueries.ChangeRow c) {
        return new Change(
                c.kind(),
                c.benchmark(),
                c.keyId(),
                c.metric(),
                c.deviceId(),
                Labels.device(c.deviceId()),
                c.unit(),
                c.before(),
                c.after(),
                c.after() / c.before(),
                c.sigmas(),
                c.index(),
                c.runId(),
                c.at(),
                c.versionBefore(),
                c.versionAfter(),
                historyLink(c.keyId(), c.metric(), c.deviceId()));
    }

    /** Each point's fitted level: the mean of the points from the step before it (or the first point) to the next step. */
    private static double[] levels(List<HistoryQueries.HistoryRow> rows, Set<UUID> stepRuns) {
        double[] level = new double[rows.size()];
        int from = 0;
        for (int i = 1; i <= rows.size(); i++) {
            if (i == rows.size() || stepRuns.contains(rows.get(i).runId())) {
                double sum = 0;
                for (int j = from; j < i; j++) {
                    sum += rows.get(j).mean();
                }
                for (int j = from; j < i; j++) {
                    level[j] = sum / (i - from);
                }
                from = i;
            }
        }
        return level;
    }

    static int parseLimit(String limit) {
        try {
            int n = limit == null ? 100 : Integer.parseInt(limit.strip());
            return Math.max(1, Math.min(MAX_LIMIT, n));
        } catch (NumberFormatException e) {
            return 100;
        }
    }

    private static boolean usable(String s) {
        return s != null && !s.isBlank() && s.length() <= MAX_TEXT;
    }
}
