package dev.podium.query.view;

import dev.podium.events.device.DeviceAliases;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.published.PublishedClaim;
import dev.podium.query.claim.ClaimCheck;
import dev.podium.query.claim.ClaimRule;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.LeaderboardRow;
import dev.podium.query.data.Queries;
import dev.podium.query.stats.ComparisonCosts;
import dev.podium.query.stats.ComparisonIntervals;
import dev.podium.query.stats.Equivalence;
import dev.podium.query.stats.LogSample;
import dev.podium.query.stats.Margin;
import dev.podium.query.stats.RatioEstimator;
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
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Builds a comparison: devices x one parameter, ratios to a baseline device, and the published claims' verdicts. What it
 * reads is scoped to the group shown: the benchmark's keys, the rows of the columns' keys, for the curves the other
 * groups' rows of only the devices without a curve under the group shown, and the columns' cells (intervals, costs).
 */
@ApplicationScoped
public class ComparisonService {

    private static final String AS_ABOVE = "as above";
    /** The most keys whose rows make the curves. */
    private static final int MAX_CURVE_KEYS = 500;

    private final Queries queries;
    private final ComparisonIntervals intervals;
    private final ComparisonCosts costs;
    private final Margins margins;

    public ComparisonService(Queries queries, ComparisonIntervals intervals, ComparisonCosts costs, Margins margins) {
        this.queries = queries;
        this.margins = margins;
        this.intervals = intervals;
        this.costs = costs;
    }

    public ComparisonView build(ComparisonQuery q) {
        Requested named = Requested.of(queries, q.benchmark(), q.group());
        List<String> benchmarks = named.benchmarks();
        String benchmark = named.benchmark();
        Margin margin = margins.of(q.margin(), benchmark);
        String source = "measured".equals(q.source()) || "published".equals(q.source()) ? q.source() : null;
        Metrics.Choice metrics = LeaderboardService.metricChoice(queries, benchmark, source, q.metric());
        String metric = metrics.metric();
        KeySet keySet = keySet(benchmark, metric, source);
        List<String> varying = keySet.varying();
        String param = param(q.param(), varying);
        Map<Map<String, String>, List<KeyRow>> groups = groups(keySet.keys(), param);
        List<KeyRow> main = main(groups, q.group());
        String mainId = main.isEmpty() ? null : main.get(0).keyId();
        List<String> requested = q.devices() == null ? List.of() : q.devices();
        Frame f = frame(benchmark, metric, source, param, keySet.keys(), groups, main, requested, margin);

        // What follows depends on the devices and the baseline asked for.
        List<String> chosen =
                requested.stream().filter(f.labels()::containsKey).distinct().toList();
        List<String> devices = chosen.isEmpty() ? f.available() : chosen;
        Set<String> shown = new HashSet<>(devices);
        List<String> ordered = chosen.isEmpty()
                ? f.ranked()
                : f.ranked().stream().filter(shown::contains).toList();
        String baseline = baseline(q.baseline(), ordered, f);
        ComparisonQuery effective = new ComparisonQuery(
                benchmark, metric, param, mainId, chosen.isEmpty() ? null : chosen, baseline, source, q.margin());
        List<ComparisonView.Row> matrix = matrix(f, ordered, baseline, effective.baselineLinks());
        List<Option> deviceOptions = f.available().stream()
                .map(d -> new Option(d, f.labels().get(d), shown.contains(d)))
                .toList();
        ComparisonView view = new ComparisonView(
                effective,
                LeaderboardService.options(benchmarks, benchmark),
                LeaderboardService.options(metrics.offered(), metric),
                LeaderboardService.options(varying, param),
                deviceOptions,
                f.groupOptions(),
                f.unit(),
                f.direction(),
                baseline,
                baseline == null ? null : f.labels().get(baseline),
                f.columns(),
                matrix,
                f.curveValues(),
                curvesOf(f.curves(), chosen.isEmpty() ? null : shown),
                benchmark == null ? List.of() : claims(benchmark));
        view = view.withIntervals(intervals.of(view, margin), margin);
        return view.withCosts(costs.of(view, f.columnKeys()));
    }

    /** The parameter asked for where the keys vary in it, else the dataloader workers, else the first that varies. */
    private static String param(String asked, List<String> varying) {
        return asked != null && varying.contains(asked)
                ? asked
                : varying.contains(LeaderboardService.WORKERS)
                        ? LeaderboardService.WORKERS
                        : varying.isEmpty() ? ComparisonKey.BATCH_SIZE : varying.get(0);
    }

    /**
     * The baseline asked for where it is shown, else the last known device shown with a first value (any device where no
     * known one is shown), else the last shown.
     */
    private static String baseline(String asked, List<String> ordered, Frame f) {
        if (asked != null && ordered.contains(asked)) {
            return asked;
        }
        List<String> known = ordered.stream().filter(DeviceAliases::known).toList();
        return (known.isEmpty() ? ordered : known)
                .stream()
                        .filter(d -> f.firstValues().get(d) != null)
                        .reduce((a, b) -> b)
                        .orElse(ordered.isEmpty() ? null : ordered.get(ordered.size() - 1));
    }

    /** A row per device shown and source: ratios to the baseline's cells, bars scaled to the largest value shown. */
    private static List<ComparisonView.Row> matrix(
            Frame f, List<String> ordered, String baseline, UnaryOperator<String> baselineLink) {
        double max = ordered.stream()
                .map(f.maxValues()::get)
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0);
        List<ComparisonView.Row> matrix = new ArrayList<>();
        Map<String, Line> baseLines = new HashMap<>(); // the baseline's line per source, found once, not per row
        for (String device : ordered) {
            for (Line line : f.lines().getOrDefault(device, List.of())) {
                Line base = baseLines.computeIfAbsent(line.source(), src -> f.line(baseline, src));
                List<ComparisonView.Cell> cells = cells(f, line, base, max);
                matrix.add(new ComparisonView.Row(
                        device,
                        f.labels().get(device),
                        DeviceAliases.known(device),
                        line.source(),
                        device.equals(baseline),
                        baselineLink.apply(device),
                        cells));
            }
        }
        return matrix;
    }

    /** A line's cells, each with its ratio to the baseline's line ({@code base}, null without one) and its bar. */
    private static List<ComparisonView.Cell> cells(Frame f, Line line, Line base, double max) {
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
            cells.add(new ComparisonView.Cell(
                    f.columnIds().get(i), value, r == null && line.notAvailable()[i], ratio, ratioText, bar));
        }
        return cells;
    }

    /** The curves of the devices shown (all when {@code shown} is null), at most 200. */
    private static List<ComparisonView.Curve> curvesOf(List<ComparisonView.Curve> curves, Set<String> shown) {
        return curves.stream()
                .filter(c -> shown == null || shown.contains(c.deviceId()))
                .limit(200)
                .toList();
    }

    /** A benchmark's keys with rows for the metric, and the dimensions in which they vary. */
    private record KeySet(List<KeyRow> keys, List<String> varying) {}

    /** One device's values from one source across the columns, and which of them the publication gave as n/a. */
    private record Line(String source, LeaderboardRow[] rows, boolean[] notAvailable) {}

    /**
     * Everything of a comparison that follows from the rows and the group of keys alone, whatever devices and baseline a
     * request asks for. {@code ranked} holds the available devices in the order rows are shown, so that a request filters
     * it instead of sorting; {@code columnKeys} are the columns' keys.
     */
    private record Frame(
            List<ComparisonView.Column> columns,
            List<KeyRow> columnKeys,
            List<String> columnIds,
            String unit,
            String direction,
            boolean lower,
            List<String> available,
            List<String> ranked,
            Map<String, String> labels,
            Map<String, Double> firstValues,
            Map<String, Double> maxValues,
            Map<String, List<Line>> lines,
            List<KeyOption> groupOptions,
            List<String> curveValues,
            List<ComparisonView.Curve> curves) {

        Line line(String device, String source) {
            for (Line l : lines.getOrDefault(device, List.of())) {
                if (l.source().equals(source)) {
                    return l;
                }
            }
            return null;
        }
    }

    /** A device's row from one source under one key. */
    private record CellAt(String deviceId, String source, String keyId) {}

    /** The benchmark's keys among {@code withRows} (those with rows for the metric), and the dimensions in which they vary. */
    private KeySet keySet(String benchmark, String metric, String source) {
        if (benchmark == null || metric == null) {
            return new KeySet(List.of(), List.of());
        }
        List<KeyRow> all = queries.keys(benchmark);
        Set<String> withRows = queries.keysWithRows(
                benchmark, metric, source, all.stream().map(KeyRow::keyId).toList());
        List<KeyRow> keys =
                all.stream().filter(k -> withRows.contains(k.keyId())).toList();
        return new KeySet(keys, varyingDimensions(keys));
    }

    /** The keys by everything but {@code param}: each group differs in {@code param} alone. */
    private static Map<Map<String, String>, List<KeyRow>> groups(List<KeyRow> keys, String param) {
        Map<Map<String, String>, List<KeyRow>> groups = new LinkedHashMap<>();
        for (KeyRow k : keys) {
            groups.computeIfAbsent(rest(k, param), x -> new ArrayList<>()).add(k);
        }
        return groups;
    }

    /** The group that holds the key asked for, else the largest. */
    private static List<KeyRow> main(Map<Map<String, String>, List<KeyRow>> groups, String keyId) {
        return groups.values().stream()
                .filter(g -> g.stream().anyMatch(k -> k.keyId().equals(keyId)))
                .findFirst()
                .orElse(groups.values().stream()
                        .max(Comparator.comparingInt(List::size))
                        .orElse(List.of()));
    }

    private Frame frame(
            String benchmark,
            String metric,
            String source,
            String param,
            List<KeyRow> keys,
            Map<Map<String, String>, List<KeyRow>> groups,
            List<KeyRow> main,
            List<String> requested,
            Margin margin) {
        Map<String, String> mainRest = main.isEmpty() ? Map.of() : rest(main.get(0), param);
        List<KeyRow> columnKeys = columnKeys(keys, groups, main, param, mainRest);
        List<ComparisonView.Column> columns = columns(columnKeys, param, mainRest);
        List<String> columnIds =
                columns.stream().map(ComparisonView.Column::keyId).toList();

        Map<String, List<LeaderboardRow>> byKey = rowsByKey(columnIds, main, metric);
        List<LeaderboardRow> rows = columnIds.stream()
                .flatMap(id -> byKey.getOrDefault(id, List.of()).stream())
                .filter(r -> source == null || source.equals(r.source()))
                .toList();
        Set<List<String>> notAvailable = notAvailable(columnIds, metric, source);
        String unit = rows.isEmpty() ? null : rows.get(0).unit();
        String direction = rows.isEmpty() ? null : rows.get(0).direction();
        boolean lower = Labels.lowerIsBetter(direction);

        Map<CellAt, LeaderboardRow> cell = new HashMap<>();
        rows.forEach(r -> cell.put(new CellAt(r.deviceId(), r.source(), r.keyId()), r));
        Set<String> available = new TreeSet<>();
        rows.forEach(r -> available.add(r.deviceId()));
        notAvailable.forEach(p -> available.add(p.get(0)));

        String firstColumn = columnIds.isEmpty() ? null : columnIds.get(0);
        Map<String, String> labels = available.stream().collect(Collectors.toMap(d -> d, Labels::device));
        Map<String, Double> firstValues = new HashMap<>();
        available.forEach(d -> firstValues.put(d, firstValue(cell, d, firstColumn)));
        Map<String, Double> maxValues = maxValues(rows);
        List<String> chosen =
                requested.stream().filter(available::contains).distinct().toList();
        CurveData curveData =
                curveData(new CurveScope(metric, source, param, lower, margin), keys, main, byKey, chosen);
        return new Frame(
                columns,
                columnKeys,
                columnIds,
                unit,
                direction,
                lower,
                List.copyOf(available),
                ranked(available, firstValues, labels, lower),
                labels,
                firstValues,
                maxValues,
                lines(available, cell, notAvailable, columnIds),
                groupOptions(benchmark, metric, source, param, groups, main),
                curveData.values(),
                curves(curveData, mainRest));
    }

    /**
     * The columns' keys: those of the group shown and those of smaller groups that differ from it in one dimension
     * other than {@code param}, by the parameter's value, at most 50.
     */
    private static List<KeyRow> columnKeys(
            List<KeyRow> keys,
            Map<Map<String, String>, List<KeyRow>> groups,
            List<KeyRow> main,
            String param,
            Map<String, String> mainRest) {
        Map<String, Integer> groupSize = new HashMap<>();
        groups.values().forEach(g -> g.forEach(k -> groupSize.put(k.keyId(), g.size())));
        Map<String, Integer> distance = new HashMap<>();
        keys.forEach(k ->
                distance.put(k.keyId(), differences(rest(k, param), mainRest).size()));
        return keys.stream()
                .filter(k -> {
                    int d = distance.get(k.keyId());
                    return d == 0 || (d == 1 && groupSize.get(k.keyId()) < main.size());
                })
                .sorted(Comparator.<KeyRow, String>comparing(k -> k.key().valueOf(param), Labels::compareValues)
                        .thenComparingInt(k -> distance.get(k.keyId()))
                        .thenComparing(KeyRow::canonical))
                .limit(50)
                .toList();
    }

    /** A column per key, labelled by its parameter value and how it differs from the group shown. */
    private static List<ComparisonView.Column> columns(
            List<KeyRow> columnKeys, String param, Map<String, String> mainRest) {
        List<ComparisonView.Column> columns = new ArrayList<>();
        for (KeyRow k : columnKeys) {
            String value = k.key().valueOf(param);
            StringBuilder label = new StringBuilder(value == null ? "(not stated)" : value);
            Map<String, String> r = rest(k, param);
            differences(r, mainRest)
                    .forEach(name -> label.append(" + ")
                            .append(
                                    r.containsKey(name)
                                            ? ("true".equalsIgnoreCase(r.get(name)) ? name : name + "=" + r.get(name))
                                            : "no " + name));
            columns.add(new ComparisonView.Column(
                    k.keyId(), value, label.toString(), k.canonical(), k.key().label()));
        }
        return columns;
    }

    /** The (device, key) pairs published as n/a in the columns; not read when only measured rows are shown. */
    private Set<List<String>> notAvailable(List<String> columnIds, String metric, String source) {
        Set<List<String>> notAvailable = new HashSet<>();
        if (!columnIds.isEmpty() && metric != null && !"measured".equals(source)) {
            queries.notAvailable(columnIds, metric).forEach(p -> notAvailable.add(List.of(p[0], p[1])));
        }
        return notAvailable;
    }

    /** Each device's largest mean among the rows. */
    private static Map<String, Double> maxValues(List<LeaderboardRow> rows) {
        Map<String, Double> maxValues = new HashMap<>();
        rows.forEach(r -> {
            if (r.mean() != null) {
                maxValues.merge(r.deviceId(), r.mean(), Math::max);
            }
        });
        return maxValues;
    }

    /** One read of the rows of the columns' keys and the group shown's (its curves), by key. */
    private Map<String, List<LeaderboardRow>> rowsByKey(List<String> columnIds, List<KeyRow> main, String metric) {
        Set<String> read = new LinkedHashSet<>(columnIds);
        main.forEach(k -> read.add(k.keyId()));
        Map<String, List<LeaderboardRow>> byKey = new HashMap<>();
        if (metric != null && !read.isEmpty()) {
            queries.leaderboard(List.copyOf(read), metric)
                    .forEach(r -> byKey.computeIfAbsent(r.keyId(), k -> new ArrayList<>())
                            .add(r));
        }
        return byKey;
    }

    /** Each available device's lines, one per source with a value or (published) an n/a in some column. */
    private static Map<String, List<Line>> lines(
            Set<String> available,
            Map<CellAt, LeaderboardRow> cell,
            Set<List<String>> notAvailable,
            List<String> columnIds) {
        Map<String, List<Line>> lines = new HashMap<>();
        for (String device : available) {
            for (String src : List.of("measured", "published")) {
                LeaderboardRow[] values = new LeaderboardRow[columnIds.size()];
                boolean[] na = new boolean[columnIds.size()];
                boolean any = false;
                for (int i = 0; i < columnIds.size(); i++) {
                    values[i] = cell.get(new CellAt(device, src, columnIds.get(i)));
                    na[i] = notAvailable.contains(List.of(device, columnIds.get(i)));
                    any |= values[i] != null || ("published".equals(src) && na[i]);
                }
                if (any) {
                    lines.computeIfAbsent(device, d -> new ArrayList<>()).add(new Line(src, values, na));
                }
            }
        }
        return lines;
    }

    /** The first 100 groups, each a link to the comparison of that group. */
    private static List<KeyOption> groupOptions(
            String benchmark,
            String metric,
            String source,
            String param,
            Map<Map<String, String>, List<KeyRow>> groups,
            List<KeyRow> main) {
        return groups.values().stream()
                .limit(100)
                .map(g -> {
                    KeyRow first = g.get(0);
                    Map<String, String> r = rest(first, param);
                    return new KeyOption(
                            first.keyId(),
                            r.entrySet().stream()
                                    .filter(e -> !ComparisonKey.BENCHMARK.equals(e.getKey()))
                                    .map(e -> e.getKey() + "=" + e.getValue())
                                    .collect(Collectors.joining("; ")),
                            first.key().withoutDimension(param).label(),
                            r,
                            g == main,
                            new ComparisonQuery(benchmark, metric, param, first.keyId(), null, null, source, null)
                                    .link()
                                    .build());
                })
                .toList();
    }

    /**
     * Known devices first (an id the alias table does not know may name an accelerator that does not exist), then best
     * first by the first column's value, then by label: the rows' order, whatever subset a request shows.
     */
    private static List<String> ranked(
            Set<String> available, Map<String, Double> firstValues, Map<String, String> labels, boolean lower) {
        Comparator<String> better = Comparator.comparing((String d) -> !DeviceAliases.known(d))
                .thenComparing(
                        (String d) -> firstValues.get(d),
                        Comparator.nullsLast(
                                lower ? Comparator.<Double>naturalOrder() : Comparator.<Double>reverseOrder()))
                .thenComparing(labels::get);
        return available.stream().sorted(better).toList();
    }

    /** A device's values from one source over the parameter under one setting of the other dimensions, normalised. */
    private record Series(
            Map<String, String> rest,
            String deviceId,
            String deviceLabel,
            String source,
            List<ComparisonView.CurveCell> cells) {}

    /** What the curves are read and judged under: metric, source filter, parameter, direction and margin. */
    private record CurveScope(String metric, String source, String param, boolean lowerIsBetter, Margin margin) {}

    /** The parameter values that have rows, and every series with at least two of them. */
    private record CurveData(List<String> values, List<Series> series) {}

    /** Where a series' points come from: one setting of the other dimensions, one device and source. */
    private record SeriesKey(Map<String, String> rest, String deviceId, String source) {}

    /** One point of a series: a parameter value, the mean there and its runs' spread (none for a published figure). */
    private record Point(String value, double mean, LogSample sample) {}

    /**
     * Each device's values over the parameter, per setting of the other dimensions, normalised to its first value: the
     * curves under the group shown from its rows ({@code byKey}), and under the other groups those of the devices and
     * sources ({@code chosen} ones, or all) that have no curve under the group shown, from one read of just those rows.
     * The parameter values are those of the keys with rows.
     */
    private CurveData curveData(
            CurveScope scope,
            List<KeyRow> keys,
            List<KeyRow> main,
            Map<String, List<LeaderboardRow>> byKey,
            List<String> chosen) {
        String metric = scope.metric();
        String source = scope.source();
        String param = scope.param();
        if (keys.isEmpty() || metric == null) {
            return new CurveData(List.of(), List.of());
        }
        Map<String, KeyRow> considered = new LinkedHashMap<>();
        keys.stream()
                .limit(MAX_CURVE_KEYS)
                .filter(k -> k.key().valueOf(param) != null)
                .forEach(k -> considered.put(k.keyId(), k));
        Set<String> values = new TreeSet<>(Labels::compareValues);
        considered.values().forEach(k -> values.add(k.key().valueOf(param)));
        Map<SeriesKey, List<Point>> points = new LinkedHashMap<>();
        Set<String> mainIds = new HashSet<>();
        main.forEach(k -> mainIds.add(k.keyId()));
        for (KeyRow k : considered.values()) {
            if (mainIds.contains(k.keyId())) {
                byKey.getOrDefault(k.keyId(), List.of()).forEach(r -> add(points, k, param, source, r));
            }
        }
        List<Queries.DeviceSource> underMain = new ArrayList<>();
        points.forEach((s, p) -> {
            if (distinctValues(p) >= 2) {
                underMain.add(new Queries.DeviceSource(s.deviceId(), s.source()));
            }
        });
        List<String> others =
                considered.keySet().stream().filter(id -> !mainIds.contains(id)).toList();
        if (!others.isEmpty()) {
            for (LeaderboardRow r : queries.curveRowsWithout(others, metric, source, chosen, underMain)) {
                add(points, considered.get(r.keyId()), param, source, r);
            }
        }
        List<Series> out = new ArrayList<>();
        points.forEach((s, p) -> series(s, p, values, scope).ifPresent(out::add));
        return new CurveData(List.copyOf(values), out);
    }

    /**
     * A series over {@code values}, each point divided by the first, with that ratio's verdict at the margin where both
     * points have runs' intervals; empty with fewer than two values.
     */
    private static Optional<Series> series(SeriesKey s, List<Point> points, Set<String> values, CurveScope scope) {
        Map<String, Point> at = new HashMap<>();
        points.forEach(p -> at.put(p.value(), p));
        if (at.size() < 2) {
            return Optional.empty();
        }
        Point base = at.get(values.stream().filter(at::containsKey).findFirst().orElseThrow());
        List<ComparisonView.CurveCell> cells = values.stream()
                .map(v -> at.containsKey(v) ? curveCell(at.get(v), base, scope) : null)
                .toList();
        return Optional.of(new Series(s.rest(), s.deviceId(), Labels.device(s.deviceId()), s.source(), cells));
    }

    /** One curve cell: the point over the curve's first, and for a later point its verdict against the first. */
    private static ComparisonView.CurveCell curveCell(Point p, Point base, CurveScope scope) {
        Equivalence verdict = p == base
                ? null
                : RatioEstimator.difference(p.sample(), base.sample(), scope.lowerIsBetter())
                        .filter(w -> RatioEstimator.computable(RatioEstimator.interval(w)))
                        .map(w -> Equivalence.of(w, scope.margin()))
                        .orElse(null);
        return new ComparisonView.CurveCell(Ratios.twoDecimals(p.mean(), base.mean()), verdict);
    }

    private static void add(
            Map<SeriesKey, List<Point>> points, KeyRow k, String param, String source, LeaderboardRow r) {
        if ((source != null && !source.equals(r.source())) || r.mean() == null || r.mean() <= 0) {
            return;
        }
        points.computeIfAbsent(new SeriesKey(rest(k, param), r.deviceId(), r.source()), x -> new ArrayList<>())
                .add(new Point(
                        k.key().valueOf(param),
                        r.mean(),
                        LogSample.ofRow(r.mean(), r.runs(), r.ci95Low(), r.ci95High())));
    }

    private static long distinctValues(List<Point> points) {
        return points.stream().map(Point::value).distinct().count();
    }

    /**
     * The curves labelled by how their setting differs from the group shown ("as above" when it does not): a device's
     * curve under the group shown, and its curves under other settings only where it has none under that group (a local
     * single-accelerator run beside published eight-device figures; {@link #curveData} reads no others). The other
     * settings' curves are one choice of group away; listing every setting of every device made the table the largest
     * part of the page.
     */
    private static List<ComparisonView.Curve> curves(CurveData data, Map<String, String> mainRest) {
        Map<Map<String, String>, String> settings = new HashMap<>();
        List<ComparisonView.Curve> out = new ArrayList<>(data.series().size());
        for (Series s : data.series()) {
            String setting = settings.computeIfAbsent(
                    s.rest(),
                    x -> differences(s.rest(), mainRest).stream()
                            .map(n ->
                                    s.rest().containsKey(n) ? n + "=" + s.rest().get(n) : "no " + n)
                            .collect(Collectors.joining(", ")));
            out.add(new ComparisonView.Curve(
                    s.deviceId(), s.deviceLabel(), s.source(), setting.isEmpty() ? AS_ABOVE : setting, s.cells()));
        }
        out.sort(Comparator.comparing(ComparisonView.Curve::source)
                .thenComparing(ComparisonView.Curve::setting)
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
        all.forEach(
                c -> bySource.computeIfAbsent(c.source(), s -> new HashMap<>()).put(c.claimId(), c));
        return all.stream()
                .filter(PublishedClaim::isRatio)
                .filter(c ->
                        c.key() == null || benchmark.equals(c.key().benchmark()) || figureOf(c, bySource, benchmark))
                .map(c -> ClaimRule.check(c, bySource.get(c.source())))
                .toList();
    }

    private static boolean figureOf(
            PublishedClaim c, Map<String, Map<String, PublishedClaim>> bySource, String benchmark) {
        PublishedClaim num = c.ratio().numeratorClaimId() == null
                ? null
                : bySource.get(c.source()).get(c.ratio().numeratorClaimId());
        return num != null && num.key() != null && benchmark.equals(num.key().benchmark());
    }

    private static Double firstValue(Map<CellAt, LeaderboardRow> cell, String device, String keyId) {
        if (keyId == null) {
            return null;
        }
        LeaderboardRow r = cell.getOrDefault(
                new CellAt(device, "measured", keyId), cell.get(new CellAt(device, "published", keyId)));
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
        return values.entrySet().stream()
                .filter(e -> e.getValue().size() > 1)
                .map(Map.Entry::getKey)
                .toList();
    }
}
