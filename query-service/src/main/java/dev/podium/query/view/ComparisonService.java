package dev.podium.query.view;

import dev.podium.events.model.ComparisonKey;
import dev.podium.events.published.PublishedClaim;
import dev.podium.query.claim.ClaimCheck;
import dev.podium.query.claim.ClaimRule;
import dev.podium.query.data.Catalog;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.LeaderboardRow;
import dev.podium.query.data.Queries;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Builds a comparison: devices x one parameter, ratios to a baseline device, and the published claims' verdicts. */
@ApplicationScoped
public class ComparisonService {

    private static final String AS_ABOVE = "as above";

    private final Queries queries;
    private final Catalog catalog;
    @jakarta.inject.Inject
    dev.podium.query.stats.ComparisonIntervals intervals;
    @jakarta.inject.Inject
    dev.podium.query.stats.ComparisonCosts costs;

    public ComparisonService(Queries queries, Catalog catalog) {
        this.queries = queries;
        this.catalog = catalog;
    }

    public ComparisonView build(ComparisonQuery q) {
        List<String> benchmarks = catalog.benchmarks();
        String benchmark = q.benchmark() != null && benchmarks.contains(q.benchmark()) ? q.benchmark()
                : benchmarks.isEmpty() ? null : benchmarks.get(0);
        String source = "measured".equals(q.source()) || "published".equals(q.source()) ? q.source() : null;
        Queries.MetricKeys metricKeys = benchmark == null ? new Queries.MetricKeys(List.of(), Map.of()) : catalog.metricKeys(benchmark, source);
        List<String> metrics = metricKeys.metrics();
        String metric = Metrics.choose(q.metric(), metrics);
        List<String> varying = keySet(benchmark, metric, source).varying();
        String param = q.param() != null && varying.contains(q.param()) ? q.param()
                : varying.contains(LeaderboardService.WORKERS) ? LeaderboardService.WORKERS
                : varying.isEmpty() ? ComparisonKey.BATCH_SIZE : varying.get(0);
        String mainId = main(groups(benchmark, metric, source, param), q.group()).stream().map(KeyRow::keyId).findFirst().orElse(null);
        Frame f = catalog.cached("comparison frame\n" + benchmark + "\n" + metric + "\n" + source + "\n" + param + "\n" + mainId,
                () -> frame(benchmark, metric, source, param, mainId));

        // What follows depends on the devices and the baseline asked for: worked out per request from the frame.
        List<String> chosen = q.devices() == null ? List.of() : q.devices().stream().filter(f.labels()::containsKey).distinct().toList();
        List<String> devices = chosen.isEmpty() ? f.available() : chosen;
        Set<String> shown = new HashSet<>(devices);
        List<String> ordered = chosen.isEmpty() ? f.ranked() : f.ranked().stream().filter(shown::contains).toList();
        String baseline = q.baseline() != null && ordered.contains(q.baseline()) ? q.baseline()
                : ordered.stream().filter(d -> f.firstValues().get(d) != null).reduce((a, b) -> b)
                        .orElse(ordered.isEmpty() ? null : ordered.get(ordered.size() - 1));

        double max = ordered.stream().map(f.maxValues()::get).filter(Objects::nonNull).mapToDouble(Double::doubleValue).max().orElse(0);
        ComparisonQuery effective = new ComparisonQuery(benchmark, metric, param, mainId, chosen.isEmpty() ? null : chosen, baseline, source);
        List<ComparisonView.Row> matrix = new ArrayList<>();
        java.util.function.UnaryOperator<String> baselineLink = effective.baselineLinks();
        Map<String, Line> baseLines = new HashMap<>(); // the baseline's line per source, found once, not per row
        for (String device : ordered) {
            for (Line line : f.lines().getOrDefault(device, List.of())) {
                Line base = baseLines.computeIfAbsent(line.source(), src -> f.line(baseline, src));
                List<ComparisonView.Cell> cells = new ArrayList<>(f.columnIds().size());
                for (int i = 0; i < f.columnIds().size(); i++) {
                    LeaderboardRow r = line.rows()[i];
                    LeaderboardRow b = base == null ? null : base.rows()[i];
                    Double value = r == null ? null : r.mean();
                    Double ratio = null;
                    String ratioText = null;
                    if (value != null && b != null && b.mean() != null && b.mean() != 0 && value != 0) {
                        ratio = f.lower() ? b.mean() / value : value / b.mean();
                        ratioText = Ratios.twoDecimals(f.lower() ? b.mean() : value, f.lower() ? value : b.mean());
                    }
                    int bar = value == null || max <= 0 ? 0 : (int) Math.round(value / max * 100);
                    cells.add(new ComparisonView.Cell(f.columnIds().get(i), value, r == null && line.notAvailable()[i], ratio, ratioText, bar));
                }
                matrix.add(new ComparisonView.Row(device, f.labels().get(device), line.source(), device.equals(baseline),
                        baselineLink.apply(device), cells));
            }
        }
        List<Option> deviceOptions = f.available().stream().map(d -> new Option(d, f.labels().get(d), shown.contains(d))).toList();
        ComparisonView view = new ComparisonView(effective, LeaderboardService.options(benchmarks, benchmark),
                LeaderboardService.options(metrics, metric), LeaderboardService.options(varying, param), deviceOptions, f.groupOptions(),
                f.unit(), f.direction(), baseline, baseline == null ? null : f.labels().get(baseline), f.columns(), matrix, f.curveValues(),
                curvesOf(f.curves(), chosen.isEmpty() ? null : shown), benchmark == null ? List.of() : catalog.cached("claims\n" + benchmark, () -> claims(benchmark)));
        view = intervals == null ? view : view.withIntervals(intervals.of(view));
        return costs == null ? view : view.withCosts(costs.of(view));
    }

    /** The curves of the devices shown (all when {@code shown} is null), at most 200. */
    private static List<ComparisonView.Curve> curvesOf(List<ComparisonView.Curve> curves, Set<String> shown) {
        return curves.stream().filter(c -> shown == null || shown.contains(c.deviceId())).limit(200).toList();
    }

    /** A benchmark's keys with rows for the metric, and the dimensions in which they vary. */
    private record KeySet(List<KeyRow> keys, List<String> varying) {
    }

    /** One device's values from one source across the columns, and which of them the publication gave as n/a. */
    private record Line(String source, LeaderboardRow[] rows, boolean[] notAvailable) {
    }

    /**
     * Everything of a comparison that follows from the rows and the group of keys alone, whatever devices and baseline a
     * request asks for; {@link Catalog} keeps it as long as the rows it came from. {@code ranked} holds the available
     * devices in the order rows are shown, so that a request filters it instead of sorting.
     */
    private record Frame(List<ComparisonView.Column> columns, List<String> columnIds, String unit, String direction, boolean lower,
            List<String> available, List<String> ranked, Map<String, String> labels, Map<String, Double> firstValues, Map<String, Double> maxValues,
            Map<String, List<Line>> lines, List<KeyOption> groupOptions, List<String> curveValues, List<ComparisonView.Curve> curves) {

        Line line(String device, String source) {
            for (Line l : lines.getOrDefault(device, List.of())) {
                if (l.source().equals(source)) {
                    return l;
                }
            }
            return null;
        }
    }

    private KeySet keySet(String benchmark, String metric, String source) {
        if (benchmark == null) {
            return new KeySet(List.of(), List.of());
        }
        return catalog.cached("comparison keys\n" + benchmark + "\n" + metric + "\n" + source, () -> {
            Set<String> withRows = catalog.metricKeys(benchmark, source).keys(metric);
            List<KeyRow> keys = catalog.keys(benchmark).stream().filter(k -> withRows.contains(k.keyId())).toList();
            return new KeySet(keys, varyingDimensions(keys));
        });
    }

    /** The keys by everything but {@code param}: each group differs in {@code param} alone. */
    private Map<String, List<KeyRow>> groups(String benchmark, String metric, String source, String param) {
        return catalog.cached("comparison groups\n" + benchmark + "\n" + metric + "\n" + source + "\n" + param, () -> {
            Map<String, List<KeyRow>> groups = new LinkedHashMap<>();
            for (KeyRow k : keySet(benchmark, metric, source).keys()) {
                groups.computeIfAbsent(rest(k, param).toString(), x -> new ArrayList<>()).add(k);
            }
            return groups;
        });
    }

    /** The group that holds the key asked for, else the largest. */
    private static List<KeyRow> main(Map<String, List<KeyRow>> groups, String keyId) {
        return groups.values().stream().filter(g -> g.stream().anyMatch(k -> k.keyId().equals(keyId))).findFirst()
                .orElse(groups.values().stream().max(Comparator.comparingInt(List::size)).orElse(List.of()));
    }

    private Frame frame(String benchmark, String metric, String source, String param, String mainId) {
        // Read through the catalog again, not handed over from the request, so the frame is never older than its own entry.
        List<KeyRow> keys = keySet(benchmark, metric, source).keys();
        Map<String, List<KeyRow>> groups = groups(benchmark, metric, source, param);
        List<KeyRow> main = main(groups, mainId);
        Map<String, String> mainRest = main.isEmpty() ? Map.of() : rest(main.get(0), param);

        List<ComparisonView.Column> columns = new ArrayList<>();
        Map<String, Integer> groupSize = new HashMap<>();
        groups.values().forEach(g -> g.forEach(k -> groupSize.put(k.keyId(), g.size())));
        Map<String, Integer> distance = new HashMap<>();
        keys.forEach(k -> distance.put(k.keyId(), differences(rest(k, param), mainRest).size()));
        List<KeyRow> columnKeys = keys.stream()
                .filter(k -> {
                    int d = distance.get(k.keyId());
                    return d == 0 || (d == 1 && groupSize.get(k.keyId()) < main.size());
                })
                .sorted(Comparator.<KeyRow, String>comparing(k -> k.key().valueOf(param), Labels::compareValues)
                        .thenComparingInt(k -> distance.get(k.keyId()))
                        .thenComparing(KeyRow::canonical))
                .limit(50)
                .toList();
        for (KeyRow k : columnKeys) {
            String value = k.key().valueOf(param);
            StringBuilder label = new StringBuilder(value == null ? "(not stated)" : value);
            Map<String, String> r = rest(k, param);
            differences(r, mainRest).forEach(name -> label.append(" + ").append(r.containsKey(name)
                    ? ("true".equalsIgnoreCase(r.get(name)) ? name : name + "=" + r.get(name))
                    : "no " + name));
            columns.add(new ComparisonView.Column(k.keyId(), value, label.toString(), k.canonical(), k.key().label()));
        }
        List<String> columnIds = columns.stream().map(ComparisonView.Column::keyId).toList();

        Map<String, List<LeaderboardRow>> byKey = metric == null ? Map.of() : catalog.leaderboardByKey(benchmark, metric);
        Map<String, Integer> column = new HashMap<>();
        columnIds.forEach(id -> column.put(id, column.size()));
        List<LeaderboardRow> rows = columnIds.stream().flatMap(id -> byKey.getOrDefault(id, List.of()).stream())
                .filter(r -> source == null || source.equals(r.source())).toList();
        Set<String> notAvailable = new HashSet<>();
        if (!columnIds.isEmpty() && metric != null && !"measured".equals(source)) {
            catalog.notAvailable(benchmark, metric).stream().filter(p -> column.containsKey(p[1]))
                    .forEach(p -> notAvailable.add(p[0] + "\n" + p[1]));
        }
        String unit = rows.isEmpty() ? null : rows.get(0).unit();
        String direction = rows.isEmpty() ? null : rows.get(0).direction();
        boolean lower = Labels.lowerIsBetter(direction);

        Map<String, LeaderboardRow> cell = new HashMap<>();
        rows.forEach(r -> cell.put(r.deviceId() + "\n" + r.source() + "\n" + r.keyId(), r));
        Set<String> available = new TreeSet<>();
        rows.forEach(r -> available.add(r.deviceId()));
        notAvailable.forEach(s -> available.add(s.substring(0, s.indexOf('\n'))));

        String firstColumn = columnIds.isEmpty() ? null : columnIds.get(0);
        Map<String, String> labels = new HashMap<>();
        Map<String, Double> firstValues = new HashMap<>();
        Map<String, Double> maxValues = new HashMap<>();
        Map<String, List<Line>> lines = new HashMap<>();
        for (String device : available) {
            labels.put(device, Labels.device(device));
            firstValues.put(device, firstValue(cell, device, firstColumn));
            for (String src : List.of("measured", "published")) {
                LeaderboardRow[] values = new LeaderboardRow[columnIds.size()];
                boolean[] na = new boolean[columnIds.size()];
                boolean any = false;
                for (int i = 0; i < columnIds.size(); i++) {
                    values[i] = cell.get(device + "\n" + src + "\n" + columnIds.get(i));
                    na[i] = notAvailable.contains(device + "\n" + columnIds.get(i));
                    any |= values[i] != null || ("published".equals(src) && na[i]);
                }
                if (any) {
                    lines.computeIfAbsent(device, d -> new ArrayList<>()).add(new Line(src, values, na));
                }
            }
        }
        rows.forEach(r -> {
            if (r.mean() != null) {
                maxValues.merge(r.deviceId(), r.mean(), Math::max);
            }
        });

        List<KeyOption> groupOptions = groups.values().stream().limit(100).map(g -> {
            KeyRow first = g.get(0);
            Map<String, String> r = rest(first, param);
            return new KeyOption(first.keyId(), r.entrySet().stream().filter(e -> !ComparisonKey.BENCHMARK.equals(e.getKey()))
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; ")),
                    first.key().withoutDimension(param).label(), r, g == main,
                    new ComparisonQuery(benchmark, metric, param, first.keyId(), null, null, source).link().build());
        }).toList();
        CurveData curveData = curveData(benchmark, metric, source, param);
        // Best first by the first column's value, then by label: the rows' order, whatever subset a request shows.
        Comparator<String> better = Comparator.comparing((String d) -> firstValues.get(d),
                Comparator.nullsLast(lower ? Comparator.<Double>naturalOrder() : Comparator.<Double>reverseOrder()))
                .thenComparing(labels::get);
        return new Frame(columns, columnIds, unit, direction, lower, List.copyOf(available), available.stream().sorted(better).toList(),
                labels, firstValues, maxValues, lines,
                groupOptions, curveData.values(), curves(curveData, mainRest));
    }

    /** A device's values from one source over the parameter under one setting of the other dimensions, normalised. */
    private record Series(String restText, Map<String, String> rest, String deviceId, String deviceLabel, String source,
            List<String> cells) {
    }

    /** The parameter values that have rows, and every series with at least two of them. */
    private record CurveData(List<String> values, List<Series> series) {
    }

    /**
     * Each device's values over the parameter, per setting of the other dimensions, normalised to its first value: the
     * same for every group of the benchmark, so worked out once per benchmark, metric, source and parameter.
     */
    private CurveData curveData(String benchmark, String metric, String source, String param) {
        return catalog.cached("comparison curves\n" + benchmark + "\n" + metric + "\n" + source + "\n" + param, () -> {
            List<KeyRow> keys = keySet(benchmark, metric, source).keys();
            if (keys.isEmpty() || metric == null) {
                return new CurveData(List.of(), List.of());
            }
            Map<String, List<LeaderboardRow>> byKey = catalog.leaderboardByKey(benchmark, metric);
            record Point(String value, double mean) {
            }
            record Builder(String restText, Map<String, String> rest, String deviceId, String source, List<Point> points) {
            }
            Set<String> values = new TreeSet<>(Labels::compareValues);
            Map<String, Builder> series = new LinkedHashMap<>();
            for (KeyRow k : keys.subList(0, Math.min(keys.size(), 500))) {
                String value = k.key().valueOf(param);
                if (value == null) {
                    continue;
                }
                Map<String, String> rest = rest(k, param);
                String restText = rest.toString();
                for (LeaderboardRow r : byKey.getOrDefault(k.keyId(), List.of())) {
                    if ((source != null && !source.equals(r.source())) || r.mean() == null || r.mean() <= 0) {
                        continue;
                    }
                    values.add(value);
                    series.computeIfAbsent(restText + "\n" + r.deviceId() + "\n" + r.source(),
                            x -> new Builder(restText, rest, r.deviceId(), r.source(), new ArrayList<>())).points().add(new Point(value, r.mean()));
                }
            }
            List<Series> out = new ArrayList<>();
            for (Builder b : series.values()) {
                Map<String, Double> points = new HashMap<>();
                b.points().forEach(p -> points.put(p.value(), p.mean()));
                if (points.size() < 2) {
                    continue;
                }
                String first = values.stream().filter(points::containsKey).findFirst().orElseThrow();
                double base = points.get(first);
                List<String> cells = values.stream().map(v -> points.containsKey(v) ? Ratios.twoDecimals(points.get(v), base) : null).toList();
                out.add(new Series(b.restText(), b.rest(), b.deviceId(), Labels.device(b.deviceId()), b.source(), cells));
            }
            return new CurveData(List.copyOf(values), out);
        });
    }

    /**
     * The curves labelled by how their setting differs from the group shown ("as above" when it does not): a device's
     * curve under the group shown, and its curves under other settings only where it has none under that group (a local
     * single-accelerator run beside published eight-device figures). The other settings' curves are one choice of group
     * away; listing every setting of every device made the table the largest part of the page.
     */
    private static List<ComparisonView.Curve> curves(CurveData data, Map<String, String> mainRest) {
        Map<String, String> settings = new HashMap<>();
        List<ComparisonView.Curve> out = new ArrayList<>(data.series().size());
        for (Series s : data.series()) {
            String setting = settings.computeIfAbsent(s.restText(), x -> differences(s.rest(), mainRest).stream()
                    .map(n -> s.rest().containsKey(n) ? n + "=" + s.rest().get(n) : "no " + n).collect(Collectors.joining(", ")));
            out.add(new ComparisonView.Curve(s.deviceId(), s.deviceLabel(), s.source(), setting.isEmpty() ? AS_ABOVE : setting, s.cells()));
        }
        Set<String> underMain = new HashSet<>();
        out.stream().filter(c -> AS_ABOVE.equals(c.setting())).forEach(c -> underMain.add(c.deviceId() + "\n" + c.source()));
        out.removeIf(c -> !AS_ABOVE.equals(c.setting()) && underMain.contains(c.deviceId() + "\n" + c.source()));
        out.sort(Comparator.comparing(ComparisonView.Curve::source).thenComparing(ComparisonView.Curve::setting)
                .thenComparing(ComparisonView.Curve::deviceLabel));
        return out;
    }

    /** Every published ratio claim about the benchmark, checked against the figures of its own source. */
    public List<ClaimCheck> claims(String benchmark) {
        List<String> sources = queries.claimSources(benchmark);
        if (sources.isEmpty()) {
            return List.of();
        }
        List<PublishedClaim> all = queries.claimsOfSources(sources);
        Map<String, Map<String, PublishedClaim>> bySource = new HashMap<>();
        all.forEach(c -> bySource.computeIfAbsent(c.source(), s -> new HashMap<>()).put(c.claimId(), c));
        return all.stream().filter(PublishedClaim::isRatio)
                .filter(c -> c.key() == null || benchmark.equals(c.key().benchmark()) || figureOf(c, bySource, benchmark))
                .map(c -> ClaimRule.check(c, bySource.get(c.source()))).toList();
    }

    private static boolean figureOf(PublishedClaim c, Map<String, Map<String, PublishedClaim>> bySource, String benchmark) {
        PublishedClaim num = c.ratio().numeratorClaimId() == null ? null : bySource.get(c.source()).get(c.ratio().numeratorClaimId());
        return num != null && num.key() != null && benchmark.equals(num.key().benchmark());
    }

    private static Double firstValue(Map<String, LeaderboardRow> cell, String device, String keyId) {
        if (keyId == null) {
            return null;
        }
        LeaderboardRow r = cell.getOrDefault(device + "\nmeasured\n" + keyId, cell.get(device + "\npublished\n" + keyId));
        return r == null ? null : r.mean();
    }

    /**
     * The dimensions in which two keys differ. The columns are the main group (no difference) and, as extra columns,
     * the keys of smaller groups that differ from it in one dimension only, such as a different dataloader at one
     * worker count.
     */
    static Set<String> differences(Map<String, String> a, Map<String, String> b) {
        Set<String> names = new TreeSet<>(a.keySet());
        names.addAll(b.keySet());
        names.removeIf(n -> Objects.equals(a.get(n), b.get(n)));
        return names;
    }

    /** The key's stated dimensions other than {@code param}. */
    static Map<String, String> rest(ComparisonKey key, String param) {
        return rest(key.dimensions(), param);
    }

    private static Map<String, String> rest(KeyRow key, String param) {
        return rest(key.dimensions(), param);
    }

    private static Map<String, String> rest(Map<String, String> dimensions, String param) {
        Map<String, String> out = new LinkedHashMap<>();
        dimensions.forEach((k, v) -> {
            if (v != null && !k.equals(param)) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static List<String> varyingDimensions(List<KeyRow> keys) {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        Set<String> names = new LinkedHashSet<>();
        keys.forEach(k -> names.addAll(k.dimensions().keySet()));
        for (String name : names) {
            if (ComparisonKey.BENCHMARK.equals(name)) {
                continue;
            }
            Set<String> vs = new HashSet<>();
            keys.forEach(k -> vs.add(String.valueOf(k.key().valueOf(name))));
            values.put(name, vs);
        }
        return values.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey).toList();
    }
}
