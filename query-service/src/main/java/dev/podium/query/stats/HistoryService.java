package dev.podium.query.stats;

import dev.podium.query.chart.LineCharts;
import dev.podium.query.data.Catalog;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.Queries;
import dev.podium.query.view.Labels;
import dev.podium.query.view.Links;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** Histories and their steps: one history at a time, and every history for the regressions page and feed. */
@ApplicationScoped
public class HistoryService {

    public static final List<String> KINDS = List.of("regressions", "improvements", "all");
    public static final int MAX_LIMIT = 500;
    private static final int MAX_TEXT = 256;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MM-dd").withZone(ZoneOffset.UTC);

    private final StatsQueries stats;
    private final Queries queries;
    private final Catalog catalog;
    private final StepDetector detector = StepDetector.DEFAULT;

    public HistoryService(StatsQueries stats, Queries queries, Catalog catalog) {
        this.stats = stats;
        this.queries = queries;
        this.catalog = catalog;
    }

    public static String historyLink(String keyId, String metric, String deviceId) {
        return Links.to("/history").param("key", keyId).param("metric", metric).param("device", deviceId).build();
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
        List<StatsQueries.HistoryRow> rows = stats.history(keyId, metric, deviceId);
        String unit = rows.isEmpty() ? null : rows.get(0).unit();
        String direction = rows.isEmpty() ? null : rows.get(0).direction();
        double[] y = rows.stream().mapToDouble(StatsQueries.HistoryRow::mean).toArray();
        List<StepDetector.Step> steps = detector.detect(y);
        double[] level = levels(y, steps);
        List<HistoryView.Point> points = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            StatsQueries.HistoryRow r = rows.get(i);
            int at = i;
            points.add(new HistoryView.Point(i, r.runId(), Links.run(r.runId()), r.startedAt(), r.frameworkVersion(), r.mean(), r.n(), level[i],
                    steps.stream().anyMatch(s -> s.index() == at)));
        }
        List<Change> changes = steps.stream().map(s -> change(rows, s)).toList();
        Map<String, List<StatsQueries.HistoryRow>> byVersion = rows.stream().collect(Collectors.groupingBy(
                r -> r.frameworkVersion() == null ? "(not stated)" : r.frameworkVersion(), LinkedHashMap::new, Collectors.toList()));
        List<Map.Entry<String, List<StatsQueries.HistoryRow>>> ordered = new ArrayList<>(byVersion.entrySet());
        ordered.sort(Comparator.comparing(e -> e.getValue().get(0).startedAt()));
        boolean lower = Labels.lowerIsBetter(direction);
        List<HistoryView.Version> versions = new ArrayList<>();
        double[] previous = null;
        for (Map.Entry<String, List<StatsQueries.HistoryRow>> e : ordered) {
            List<StatsQueries.HistoryRow> rs = e.getValue();
            double[] raw = Samples.of(rs.stream().map(StatsQueries.HistoryRow::rawValues).toList(),
                    rs.stream().map(r -> (Double) r.mean()).toList());
            RatioInterval vs = previous == null ? null : RatioEstimator.estimate(raw, previous, lower).orElse(null);
            versions.add(new HistoryView.Version(e.getKey(), rs.size(), rs.stream().mapToDouble(StatsQueries.HistoryRow::mean).average()
                    .orElse(Double.NaN), rs.get(0).startedAt(), rs.get(rs.size() - 1).startedAt(), vs));
            previous = raw;
        }
        int every = Math.max(1, rows.size() / 8);
        List<String> labels = new ArrayList<>();
        List<double[]> valuePoints = new ArrayList<>();
        List<double[]> levelPoints = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            labels.add(i % every == 0 ? DAY.format(rows.get(i).startedAt()) : "");
            valuePoints.add(new double[] {i, y[i]});
            levelPoints.add(new double[] {i, level[i]});
        }
        return Optional.of(new HistoryView(keyId, key.get().canonical(), key.get().benchmark(), metric, deviceId, Labels.device(deviceId), unit,
                direction, detector.describe(), points, changes, versions,
                LineCharts.categorical(metric + " per run", unit, labels,
                        List.of(new LineCharts.Series("run mean", valuePoints), new LineCharts.Series("fitted level", levelPoints)))));
    }

    /** Steps across every history, newest first. */
    public RegressionsView regressions(String kind, String benchmark, String limit) {
        String k = kind != null && KINDS.contains(kind) ? kind : "regressions";
        int n = parseLimit(limit);
        List<String> benchmarks = catalog.benchmarks();
        String b = benchmark != null && benchmarks.contains(benchmark) ? benchmark : null;
        AllChanges all = catalog.cached("stats-all-changes", this::allChanges);
        List<Change> changes = all.changes().stream()
                .filter(c -> b == null || b.equals(c.benchmark()))
                .filter(c -> "all".equals(k) || ("regressions".equals(k) == c.regression()))
                .limit(n).toList();
        return new RegressionsView(k, b, benchmarks, n, detector.describe(), all.histories(), all.points(), changes);
    }

    private record AllChanges(int histories, int points, List<Change> changes) {
    }

    private AllChanges allChanges() {
        List<StatsQueries.HistoryRow> rows = stats.allHistories();
        List<Change> out = new ArrayList<>();
        int histories = 0;
        int from = 0;
        for (int i = 1; i <= rows.size(); i++) {
            if (i == rows.size() || !sameHistory(rows.get(i), rows.get(from))) {
                List<StatsQueries.HistoryRow> h = rows.subList(Math.max(from, i - StepDetector.MAX_POINTS), i);
                histories++;
                detector.detect(h.stream().mapToDouble(StatsQueries.HistoryRow::mean).toArray()).forEach(s -> out.add(change(h, s)));
                from = i;
            }
        }
        out.sort(Comparator.comparing(Change::at).reversed().thenComparing(Change::keyId).thenComparing(Change::deviceId));
        return new AllChanges(histories, rows.size(), out);
    }

    private static boolean sameHistory(StatsQueries.HistoryRow a, StatsQueries.HistoryRow b) {
        return a.keyId().equals(b.keyId()) && a.metric().equals(b.metric()) && a.deviceId().equals(b.deviceId());
    }

    private static Change change(List<StatsQueries.HistoryRow> rows, StepDetector.Step s) {
        StatsQueries.HistoryRow first = rows.get(s.index());
        StatsQueries.HistoryRow previous = rows.get(s.index() - 1);
        boolean lower = Labels.lowerIsBetter(first.direction());
        boolean worse = lower ? s.after() > s.before() : s.after() < s.before();
        return new Change(worse ? Change.REGRESSION : Change.IMPROVEMENT, first.benchmark(), first.keyId(), first.metric(), first.deviceId(),
                Labels.device(first.deviceId()), first.unit(), s.before(), s.after(), s.ratio(), s.sigmas(), s.index(), first.runId(),
                first.startedAt(), previous.frameworkVersion(), first.frameworkVersion(),
                historyLink(first.keyId(), first.metric(), first.deviceId()));
    }

    private static double[] levels(double[] y, List<StepDetector.Step> steps) {
        double[] level = new double[y.length];
        List<Integer> bounds = new ArrayList<>();
        bounds.add(0);
        steps.forEach(s -> bounds.add(s.index()));
        bounds.add(y.length);
        for (int b = 0; b + 1 < bounds.size(); b++) {
            double sum = 0;
            for (int i = bounds.get(b); i < bounds.get(b + 1); i++) {
                sum += y[i];
            }
            double mean = sum / (bounds.get(b + 1) - bounds.get(b));
            for (int i = bounds.get(b); i < bounds.get(b + 1); i++) {
                level[i] = mean;
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
