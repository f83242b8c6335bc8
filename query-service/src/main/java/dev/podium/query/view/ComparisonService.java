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
import java.math.BigDecimal;
import java.math.RoundingMode;
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
        Set<String> withRows = metricKeys.keys(metric);
        List<KeyRow> keys = benchmark == null ? List.of()
                : catalog.keys(benchmark).stream().filter(k -> withRows.contains(k.keyId())).toList();

        List<String> varying = varyingDimensions(keys);
        String param = q.param() != null && varying.contains(q.param()) ? q.param()
                : varying.contains(LeaderboardService.WORKERS) ? LeaderboardService.WORKERS
                : varying.isEmpty() ? ComparisonKey.BATCH_SIZE : varying.get(0);

        Map<String, List<KeyRow>> groups = new LinkedHashMap<>();
        for (KeyRow k : keys) {
            groups.computeIfAbsent(rest(k.key(), param).toString(), x -> new ArrayList<>()).add(k);
        }
        List<KeyRow> main = groups.values().stream().filter(g -> g.stream().anyMatch(k -> k.keyId().equals(q.group()))).findFirst()
                .orElse(groups.values().stream().max(Comparator.comparingInt(List::size)).orElse(List.of()));
        Map<String, String> mainRest = main.isEmpty() ? Map.of() : rest(main.get(0).key(), param);

        List<ComparisonView.Column> columns = new ArrayList<>();
        Map<String, Integer> groupSize = new HashMap<>();
        groups.values().forEach(g -> g.forEach(k -> groupSize.put(k.keyId(), g.size())));
        Map<String, Integer> distance = new HashMap<>();
        keys.forEach(k -> distance.put(k.keyId(), differences(rest(k.key(), param), mainRest).size()));
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
            Map<String, String> r = rest(k.key(), param);
            differences(r, mainRest).forEach(name -> label.append(" + ").append(r.containsKey(name)
                    ? ("true".equalsIgnoreCase(r.get(name)) ? name : name + "=" + r.get(name))
                    : "no " + name));
            columns.add(new ComparisonView.Column(k.keyId(), value, label.toString(), k.canonical()));
        }
        List<String> columnIds = columns.stream().map(ComparisonView.Column::keyId).toList();

        // One read of the rows of every key serves both the matrix (its columns) and the curves (all groups).
        List<LeaderboardRow> keyRows = keys.isEmpty() || metric == null ? List.of()
                : queries.leaderboard(keys.stream().map(KeyRow::keyId).limit(500).toList(), metric);
        Set<String> columnSet = new HashSet<>(columnIds);
        List<LeaderboardRow> rows = keyRows.stream().filter(r -> columnSet.contains(r.keyId())).toList();
        rows = rows.stream().filter(r -> source == null || source.equals(r.source())).toList();
        Set<String> notAvailable = new HashSet<>();
        if (!columnIds.isEmpty() && metric != null && !"measured".equals(source)) {
            catalog.notAvailable(benchmark, metric).stream().filter(p -> columnSet.contains(p[1]))
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
        List<String> chosen = q.devices() == null ? List.of() : q.devices().stream().filter(available::contains).distinct().toList();
        List<String> devices = chosen.isEmpty() ? List.copyOf(available) : chosen;

        String firstColumn = columnIds.isEmpty() ? null : columnIds.get(0);
        Comparator<String> better = Comparator.comparing((String d) -> firstValue(cell, d, firstColumn),
                Comparator.nullsLast(lower ? Comparator.<Double>naturalOrder() : Comparator.<Double>reverseOrder()))
                .thenComparing(Labels::device);
        List<String> ordered = devices.stream().sorted(better).toList();
        String baseline = q.baseline() != null && ordered.contains(q.baseline()) ? q.baseline()
                : ordered.stream().filter(d -> firstValue(cell, d, firstColumn) != null).reduce((a, b) -> b)
                        .orElse(ordered.isEmpty() ? null : ordered.get(ordered.size() - 1));

        double max = rows.stream().filter(r -> ordered.contains(r.deviceId())).map(LeaderboardRow::mean).filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue).max().orElse(0);
        ComparisonQuery effective = new ComparisonQuery(benchmark, metric, param, main.isEmpty() ? null : main.get(0).keyId(),
                chosen.isEmpty() ? null : chosen, baseline, source);
        List<ComparisonView.Row> matrix = new ArrayList<>();
        for (String device : ordered) {
            for (String src : List.of("measured", "published")) {
                boolean any = columnIds.stream().anyMatch(k -> cell.containsKey(device + "\n" + src + "\n" + k)
                        || ("published".equals(src) && notAvailable.contains(device + "\n" + k)));
                if (!any) {
                    continue;
                }
                List<ComparisonView.Cell> cells = new ArrayList<>();
                for (String k : columnIds) {
                    LeaderboardRow r = cell.get(device + "\n" + src + "\n" + k);
                    LeaderboardRow base = cell.get(baseline + "\n" + src + "\n" + k);
                    Double value = r == null ? null : r.mean();
                    Double ratio = null;
                    String ratioText = null;
                    if (value != null && base != null && base.mean() != null && base.mean() != 0 && value != 0) {
                        BigDecimal v = BigDecimal.valueOf(value);
                        BigDecimal b = BigDecimal.valueOf(base.mean());
                        BigDecimal x = lower ? b.divide(v, java.math.MathContext.DECIMAL64) : v.divide(b, java.math.MathContext.DECIMAL64);
                        ratio = x.doubleValue();
                        ratioText = x.setScale(2, RoundingMode.HALF_UP).toPlainString();
                    }
                    int bar = value == null || max <= 0 ? 0 : (int) Math.round(value / max * 100);
                    cells.add(new ComparisonView.Cell(k, value, r == null && notAvailable.contains(device + "\n" + k), ratio, ratioText, bar));
                }
                matrix.add(new ComparisonView.Row(device, Labels.device(device), src, device.equals(baseline),
                        effective.withBaseline(device).link().build(), cells));
            }
        }

        List<KeyOption> groupOptions = groups.values().stream().limit(100).map(g -> {
            KeyRow first = g.get(0);
            Map<String, String> r = rest(first.key(), param);
            return new KeyOption(first.keyId(), r.entrySet().stream().filter(e -> !ComparisonKey.BENCHMARK.equals(e.getKey()))
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; ")), r, g == main,
                    new ComparisonQuery(benchmark, metric, param, first.keyId(), null, null, source).link().build());
        }).toList();
        List<String> curveValues = new ArrayList<>();
        List<ComparisonView.Curve> curves = curves(keys, keyRows, mainRest, param, metric, source, curveValues);
        List<Option> deviceOptions = available.stream().map(d -> new Option(d, Labels.device(d), devices.contains(d))).toList();
        ComparisonView view = new ComparisonView(effective, LeaderboardService.options(benchmarks, benchmark),
                LeaderboardService.options(metrics, metric), LeaderboardService.options(varying, param), deviceOptions, groupOptions,
                unit, direction, baseline, baseline == null ? null : Labels.device(baseline), columns, matrix, curveValues, curves,
                benchmark == null ? List.of() : catalog.cached("claims\n" + benchmark, () -> claims(benchmark)));
        view = intervals == null ? view : view.withIntervals(intervals.of(view));
        return costs == null ? view : view.withCosts(costs.of(view));
    }

    /** Each device's values over the parameter, per setting of the other dimensions, normalised to its first value. */
    private static List<ComparisonView.Curve> curves(List<KeyRow> keys, List<LeaderboardRow> keyRows, Map<String, String> mainRest,
            String param, String metric, String source, List<String> valuesOut) {
        if (keys.isEmpty() || metric == null) {
            return List.of();
        }
        // Everything that depends on the key alone is worked out once per key, not once per row.
        record PerKey(String value, String rest, String setting) {
        }
        record SeriesId(String rest, String deviceId, String source) {
        }
        Map<String, PerKey> perKey = new HashMap<>();
        Set<String> values = new TreeSet<>(Labels::compareValues);
        for (KeyRow k : keys) {
            Map<String, String> rest = rest(k.key(), param);
            String setting = differences(rest, mainRest).stream()
                    .map(n -> rest.containsKey(n) ? n + "=" + rest.get(n) : "no " + n).collect(Collectors.joining(", "));
            perKey.put(k.keyId(), new PerKey(k.key().valueOf(param), rest.toString(), setting));
        }
        Set<String> keysWithRows = new HashSet<>();
        Map<SeriesId, Map<String, Double>> series = new LinkedHashMap<>();
        Map<SeriesId, String> settings = new HashMap<>();
        for (LeaderboardRow r : keyRows) {
            PerKey k = perKey.get(r.keyId());
            if (k == null || k.value() == null || (source != null && !source.equals(r.source())) || r.mean() == null || r.mean() <= 0) {
                continue;
            }
            if (keysWithRows.add(r.keyId())) {
                values.add(k.value());
            }
            SeriesId id = new SeriesId(k.rest(), r.deviceId(), r.source());
            series.computeIfAbsent(id, x -> new HashMap<>()).put(k.value(), r.mean());
            settings.put(id, k.setting());
        }
        valuesOut.addAll(values);
        List<ComparisonView.Curve> out = new ArrayList<>();
        series.forEach((id, points) -> {
            if (points.size() < 2) {
                return;
            }
            String first = values.stream().filter(points::containsKey).findFirst().orElseThrow();
            BigDecimal base = BigDecimal.valueOf(points.get(first));
            List<String> cells = values.stream().map(v -> points.containsKey(v)
                    ? BigDecimal.valueOf(points.get(v)).divide(base, java.math.MathContext.DECIMAL64).setScale(2, RoundingMode.HALF_UP).toPlainString()
                    : null).toList();
            String setting = settings.get(id);
            out.add(new ComparisonView.Curve(id.deviceId(), Labels.device(id.deviceId()), id.source(),
                    setting.isEmpty() ? "as above" : setting, cells));
        });
        out.sort(Comparator.comparing(ComparisonView.Curve::source).thenComparing(ComparisonView.Curve::setting)
                .thenComparing(ComparisonView.Curve::deviceLabel));
        return out.size() > 200 ? out.subList(0, 200) : out;
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
        Map<String, String> out = new LinkedHashMap<>();
        key.dimensions().forEach((k, v) -> {
            if (v != null && !k.equals(param)) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static List<String> varyingDimensions(List<KeyRow> keys) {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        Set<String> names = new LinkedHashSet<>();
        keys.forEach(k -> names.addAll(k.key().dimensions().keySet()));
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
