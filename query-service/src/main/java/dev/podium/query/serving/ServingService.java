package dev.podium.query.serving;

import dev.podium.events.admin.CatalogKind;
import dev.podium.events.model.ComparisonKey;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.Queries;
import dev.podium.query.view.NotFound;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Builds the serving view from two indexed reads: the benchmark's keys and the measured leaderboard rows of its two
 * metrics. A curve is one device and accelerator count under one key group (the key without the concurrency and the
 * count); its points are the concurrencies.
 */
@ApplicationScoped
public class ServingService {

    private final Queries queries;
    private final ServingQueries serving;

    public ServingService(Queries queries, ServingQueries serving) {
        this.queries = queries;
        this.serving = serving;
    }

    public ServingView build(ServingQuery q) {
        if (q.benchmark() == null) {
            return new ServingView(q, List.of(), List.of(), false, "Choose a benchmark with serving results.");
        }
        if (queries.hidden(CatalogKind.BENCHMARK, q.benchmark())) {
            throw NotFound.benchmark(q.benchmark());
        }
        Map<String, KeyRow> keys = new LinkedHashMap<>();
        queries.keys(q.benchmark()).forEach(k -> keys.put(k.keyId(), k));
        List<ServingRow> rows = serving.rows(q.benchmark(), q.x(), q.y());
        boolean truncated = rows.size() > ServingQueries.MAX_ROWS;
        Map<GroupKey, Map<String, List<Pair>>> groups = new TreeMap<>(Comparator.comparing(GroupKey::label));
        pairs(rows.subList(0, Math.min(rows.size(), ServingQueries.MAX_ROWS)), q.x(), q.y())
                .forEach(pair -> {
                    KeyRow key = keys.get(pair.x().keyId());
                    String value = key == null ? null : key.dimensions().get(q.param());
                    if (value != null) {
                        groups.computeIfAbsent(GroupKey.of(key.key(), q.param()), g -> new TreeMap<>())
                                .computeIfAbsent(curveLabel(pair.x().deviceLabel(), key), d -> new ArrayList<>())
                                .add(pair.withKey(key, value));
                    }
                });
        List<ServingView.Group> out = new ArrayList<>();
        groups.forEach((group, byDevice) -> out.add(group(q, group, byDevice)));
        String message = out.isEmpty()
                ? "No measured results of " + q.x() + " and " + q.y() + " under keys with a " + q.param() + " in "
                        + q.benchmark() + "."
                : null;
        return new ServingView(q, queries.metrics(q.benchmark()), out, truncated, message);
    }

    private static ServingView.Group group(ServingQuery q, GroupKey group, Map<String, List<Pair>> byDevice) {
        List<Pair> all = byDevice.values().stream().flatMap(List::stream).toList();
        boolean xHigher = all.get(0).x().higherIsBetter();
        boolean yHigher = all.get(0).y().higherIsBetter();
        List<Integer> front = ParetoFront.of(
                all.stream()
                        .map(p -> new double[] {p.x().mean(), p.yPerAccelerator()})
                        .toList(),
                xHigher,
                yHigher);
        List<ServingView.Curve> curves = new ArrayList<>();
        int index = 0;
        for (Map.Entry<String, List<Pair>> device : byDevice.entrySet()) {
            List<ServingView.Point> points = new ArrayList<>();
            for (Pair p : device.getValue()) {
                points.add(p.point(front.contains(index++)));
            }
            points.sort(Comparator.comparingDouble(p -> numeric(p.paramValue())));
            curves.add(new ServingView.Curve(device.getValue().get(0).x().deviceId(), device.getKey(), points));
        }
        String xLabel = q.x() + " (" + all.get(0).x().unit() + (xHigher ? ", higher is better)" : ", lower is better)");
        String yLabel = q.y() + " per accelerator (" + all.get(0).y().unit() + ")";
        return new ServingView.Group(group.label(), xLabel, yLabel, xHigher, curves, ScatterChart.of(curves));
    }

    /** The x and y rows of each (key, device) that has both. */
    private static List<Pair> pairs(List<ServingRow> rows, String xMetric, String yMetric) {
        Map<Cell, ServingRow> xs = new LinkedHashMap<>();
        Map<Cell, ServingRow> ys = new HashMap<>();
        for (ServingRow r : rows) {
            if (r.mean() != null && Double.isFinite(r.mean())) {
                Cell cell = new Cell(r.keyId(), r.deviceId());
                if (r.metric().equals(xMetric)) {
                    xs.put(cell, r);
                }
                if (r.metric().equals(yMetric)) {
                    ys.put(cell, r);
                }
            }
        }
        return xs.entrySet().stream()
                .filter(e -> ys.containsKey(e.getKey()))
                .map(e -> new Pair(e.getValue(), ys.get(e.getKey()), null, null))
                .toList();
    }

    private static String curveLabel(String device, KeyRow key) {
        Integer total = key.key().totalAccelerators();
        return total == null ? device : device + " \u00d7 " + total;
    }

    private static double numeric(String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return Double.MAX_VALUE;
        }
    }

    /**
     * The key of a group: the comparison key without the dimension the curve runs over and without the accelerator count,
     * since y is per accelerator (each curve names its count), and its readable label.
     */
    private record GroupKey(String label) {
        static GroupKey of(ComparisonKey key, String param) {
            SortedMap<String, String> extra = new TreeMap<>(key.extra() == null ? Map.of() : key.extra());
            extra.remove(param);
            ComparisonKey rest = new ComparisonKey(
                    key.benchmark(),
                    key.benchmarkVersion(),
                    key.scenario(),
                    key.model(),
                    key.precision(),
                    key.perDeviceBatchSize(),
                    null,
                    key.inputSize(),
                    extra);
            return new GroupKey(rest.label());
        }
    }

    private record Cell(String keyId, String deviceId) {}

    /** A (key, device)'s x and y rows, with the key and its concurrency once known. */
    private record Pair(ServingRow x, ServingRow y, KeyRow key, String paramValue) {

        Pair withKey(KeyRow k, String value) {
            return new Pair(x, y, k, value);
        }

        int accelerators() {
            Integer total = key == null ? null : key.key().totalAccelerators();
            return total == null || total < 1 ? 1 : total;
        }

        double yPerAccelerator() {
            return y.mean() / accelerators();
        }

        ServingView.Point point(boolean onFront) {
            boolean interval = y.n() >= 2 && y.ci95Low() != null && y.ci95High() != null;
            return new ServingView.Point(
                    paramValue,
                    key.keyId(),
                    x.mean(),
                    yPerAccelerator(),
                    interval ? y.ci95Low() / accelerators() : null,
                    interval ? y.ci95High() / accelerators() : null,
                    y.runs(),
                    y.n(),
                    onFront);
        }
    }
}
