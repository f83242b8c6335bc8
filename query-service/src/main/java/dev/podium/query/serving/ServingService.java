package dev.podium.query.serving;

import dev.podium.events.admin.CatalogKind;
import dev.podium.events.model.ComparisonKey;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.Queries;
import dev.podium.query.stats.Margin;
import dev.podium.query.view.Margins;
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
    private final Margins margins;

    public ServingService(Queries queries, ServingQueries serving, Margins margins) {
        this.queries = queries;
        this.serving = serving;
        this.margins = margins;
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
        List<String> metrics = queries.metrics(q.benchmark());
        Setting setting = new Setting(
                q.targetMetric() != null
                        ? q.targetMetric()
                        : queries.metricExists(q.benchmark(), ServingQuery.P99_TTFT) ? ServingQuery.P99_TTFT : q.x(),
                q.target(),
                q.baseline(),
                margins.of(q.margin(), q.benchmark()));
        List<ServingRow> rows = serving.rows(q.benchmark(), q.x(), q.y(), setting.metric());
        boolean truncated = rows.size() > ServingQueries.MAX_ROWS;
        Map<GroupKey, Map<String, List<Pair>>> groups = new TreeMap<>(Comparator.comparing(GroupKey::label));
        pairs(rows.subList(0, Math.min(rows.size(), ServingQueries.MAX_ROWS)), q.x(), q.y(), setting.metric())
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
        groups.forEach((group, byDevice) -> out.add(group(q, setting, group, byDevice)));
        String message = out.isEmpty()
                ? "No measured results of " + q.x() + " and " + q.y() + " under keys with a " + q.param() + " in "
                        + q.benchmark() + "."
                : null;
        return new ServingView(q, metrics, out, truncated, message);
    }

    private static ServingView.Group group(
            ServingQuery q, Setting setting, GroupKey group, Map<String, List<Pair>> unsorted) {
        Map<String, List<Pair>> byDevice = new LinkedHashMap<>();
        unsorted.forEach((label, pairs) -> byDevice.put(
                label,
                pairs.stream()
                        .sorted(Comparator.comparingDouble(p -> numeric(p.paramValue())))
                        .toList()));
        List<Pair> all = byDevice.values().stream().flatMap(List::stream).toList();
        boolean xHigher = all.get(0).x().higherIsBetter();
        boolean yHigher = all.get(0).y().higherIsBetter();
        List<Integer> front = ParetoFront.of(
                all.stream()
                        .map(p -> new double[] {p.x().mean(), p.yPerAccelerator()})
                        .toList(),
                xHigher,
                yHigher);
        Targeted targeted = targeted(setting, byDevice, yHigher);
        List<ServingView.Curve> curves = new ArrayList<>();
        int index = 0;
        for (Map.Entry<String, List<Pair>> device : byDevice.entrySet()) {
            List<ServingView.Point> points = new ArrayList<>();
            for (Pair p : device.getValue()) {
                points.add(p.point(front.contains(index++)));
            }
            String label = device.getKey();
            curves.add(new ServingView.Curve(
                    device.getValue().get(0).x().deviceId(),
                    label,
                    points,
                    targeted.at().get(label),
                    targeted.ratios().get(label)));
        }
        String xLabel = q.x() + " (" + all.get(0).x().unit() + (xHigher ? ", higher is better)" : ", lower is better)");
        String yLabel = q.y() + " per accelerator (" + all.get(0).y().unit() + ")";
        return new ServingView.Group(
                group.label(), xLabel, yLabel, xHigher, curves, ScatterChart.of(curves), targeted.target());
    }

    /**
     * Each curve's y at the group's target and its ratio to the baseline curve there; no target where no point of the
     * group measured the target metric.
     */
    private static Targeted targeted(Setting setting, Map<String, List<Pair>> byDevice, boolean yHigher) {
        Map<String, List<TargetCrossing.Reading>> readings = new LinkedHashMap<>();
        byDevice.forEach((label, pairs) -> readings.put(
                label,
                pairs.stream().filter(p -> p.t() != null).map(Pair::reading).toList()));
        Double value =
                setting.value() != null ? setting.value() : TargetCrossing.middle(List.copyOf(readings.values()));
        ServingRow first = byDevice.values().stream()
                .flatMap(List::stream)
                .map(Pair::t)
                .filter(t -> t != null)
                .findFirst()
                .orElse(null);
        Map<String, AtTarget> at = new LinkedHashMap<>();
        Map<String, ServingView.Ratio> ratios = new HashMap<>();
        if (first == null || value == null) {
            readings.keySet().forEach(label -> at.put(label, AtTarget.missed(AtTarget.Status.NOT_MEASURED)));
            return new Targeted(null, at, ratios);
        }
        boolean lower = !first.higherIsBetter();
        readings.forEach((label, curve) -> at.put(label, TargetCrossing.at(curve, value, lower)));
        Map<String, String> devices = new HashMap<>();
        byDevice.forEach((label, pairs) -> devices.put(label, pairs.get(0).x().deviceId()));
        String baseline = TargetRatios.baseline(devices, at, setting.baseline());
        AtTarget base = baseline == null ? null : at.get(baseline);
        at.forEach((label, a) -> {
            if (!label.equals(baseline)) {
                ratios.put(label, TargetRatios.of(a, base, !yHigher, setting.margin()));
            }
        });
        ServingView.Target target =
                new ServingView.Target(setting.metric(), value, first.unit(), lower, setting.value() == null, baseline);
        return new Targeted(target, at, ratios);
    }

    /** The x and y rows of each (key, device) that has both, with its target metric's row where it has one. */
    private static List<Pair> pairs(List<ServingRow> rows, String xMetric, String yMetric, String targetMetric) {
        Map<Cell, ServingRow> xs = new LinkedHashMap<>();
        Map<Cell, ServingRow> ys = new HashMap<>();
        Map<Cell, ServingRow> ts = new HashMap<>();
        for (ServingRow r : rows) {
            if (r.mean() != null && Double.isFinite(r.mean())) {
                Cell cell = new Cell(r.keyId(), r.deviceId());
                if (r.metric().equals(xMetric)) {
                    xs.put(cell, r);
                }
                if (r.metric().equals(yMetric)) {
                    ys.put(cell, r);
                }
                if (r.metric().equals(targetMetric)) {
                    ts.put(cell, r);
                }
            }
        }
        return xs.entrySet().stream()
                .filter(e -> ys.containsKey(e.getKey()))
                .map(e -> new Pair(e.getValue(), ys.get(e.getKey()), ts.get(e.getKey()), null, null))
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

    /**
     * What a request sets of the target: its metric, its value (null: the middle of the range the curves share), the
     * baseline device and the margin.
     */
    private record Setting(String metric, Double value, String baseline, Margin margin) {}

    /** A group's target, each curve's y there and each curve's ratio there to the baseline, by curve label. */
    private record Targeted(
            ServingView.Target target, Map<String, AtTarget> at, Map<String, ServingView.Ratio> ratios) {}

    /** A (key, device)'s x, y and target metric (t, null where not measured) rows, with the key and its concurrency. */
    private record Pair(ServingRow x, ServingRow y, ServingRow t, KeyRow key, String paramValue) {

        Pair withKey(KeyRow k, String value) {
            return new Pair(x, y, t, k, value);
        }

        TargetCrossing.Reading reading() {
            return new TargetCrossing.Reading(paramValue, Measured.of(t, 1), Measured.of(y, accelerators()));
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
