package dev.podium.query.view;

import dev.podium.events.published.PublishedClaim;
import dev.podium.query.chart.Chart;
import dev.podium.query.chart.LineCharts;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.LeaderboardRow;
import dev.podium.query.data.Queries;
import dev.podium.query.data.RunSummary;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Builds the "your machine beside the published devices" page. A local one-accelerator run of a tiny model and a published
 * 8-device BridgeTower figure have different comparison keys, so they are never ranked; what can be set side by side is
 * how each system's value changes with the parameter (dataloader workers), each normalised to its own base setting.
 */
@ApplicationScoped
public class LocalService {

    private static final int MAX_CURVES = 50;

    private final Queries queries;

    public LocalService(Queries queries) {
        this.queries = queries;
    }

    public LocalView build(LocalQuery requested) {
        LocalQuery q = requested.withDefaults();
        List<Series> local = series(q.benchmark(), "measured", q);
        List<Series> published = series(q.published(), "published", q);
        Set<String> all = new TreeSet<>(Labels::compareValues);
        local.forEach(s -> all.addAll(s.rows.keySet()));
        published.forEach(s -> all.addAll(s.rows.keySet()));
        List<String> values = List.copyOf(all);
        String base = values.isEmpty() ? "0" : values.contains("0") ? "0" : values.get(0);

        List<LocalView.Curve> localCurves = curves(local, values, base);
        List<LocalView.Curve> publishedCurves = curves(published, values, base);
        String unit = unit(local).orElse(unit(published).orElse(null));
        Chart chart = chart(q, base, numericOnly(values), concat(localCurves, publishedCurves));

        List<RunSummary> runs =
                queries.benchmarkExists(q.benchmark()) ? queries.recentRunsOfBenchmark(q.benchmark(), 20) : List.of();
        List<LocalView.Source> sources = sources(q.published());
        return new LocalView(
                q,
                base,
                unit,
                values,
                localCurves,
                publishedCurves,
                chart,
                runs,
                sources,
                new ComparisonQuery(q.benchmark(), q.metric(), q.param(), null, null, null, null, null)
                        .link()
                        .build(),
                new ComparisonQuery(q.published(), q.metric(), q.param(), null, null, null, "published", null)
                        .link()
                        .build());
    }

    /** The unit of the series' first row. */
    private static Optional<String> unit(List<Series> series) {
        return series.stream()
                .flatMap(s -> s.rows.values().stream())
                .map(LeaderboardRow::unit)
                .findFirst();
    }

    /** The curves' normalised values on the numeric parameter values ({@code axis}), one line per curve with any. */
    private static Chart chart(LocalQuery q, String base, List<String> axis, List<LocalView.Curve> curves) {
        List<LineCharts.Series> lines = new ArrayList<>();
        for (LocalView.Curve c : curves) {
            List<double[]> pts = new ArrayList<>();
            for (LocalView.Point p : c.points()) {
                if (p.normalised() != null && axis.contains(p.value())) {
                    pts.add(new double[] {axis.indexOf(p.value()), p.normalised()});
                }
            }
            if (!pts.isEmpty()) {
                lines.add(new LineCharts.Series(
                        c.deviceLabel() + " · " + c.source() + (c.setting().isEmpty() ? "" : " · " + c.setting()),
                        pts));
            }
        }
        return LineCharts.categorical(
                q.metric() + " ÷ its own value at " + q.param() + "=" + base + ", by " + q.param(), "×", axis, lines);
    }

    /** The sources of the published benchmark's claims, each from its first claim; none if the benchmark is unknown. */
    private List<LocalView.Source> sources(String publishedBenchmark) {
        List<LocalView.Source> sources = new ArrayList<>();
        if (queries.benchmarkExists(publishedBenchmark)) {
            List<String> names = queries.claimSources(publishedBenchmark);
            Map<String, PublishedClaim> first = new LinkedHashMap<>();
            if (!names.isEmpty()) {
                queries.claimsOfSources(names).forEach(c -> first.putIfAbsent(c.source(), c));
            }
            first.values()
                    .forEach(c ->
                            sources.add(new LocalView.Source(c.source(), c.sourceTitle(), safeUrl(c.sourceUrl()))));
        }
        return sources;
    }

    /** One curve's rows by parameter value. */
    private record Series(
            String deviceId,
            String source,
            Map<String, String> rest,
            Map<String, LeaderboardRow> rows,
            int[] runsFailingChecks) {}

    private List<Series> series(String benchmark, String source, LocalQuery q) {
        if (!queries.benchmarkExists(benchmark)) {
            return List.of();
        }
        List<KeyRow> keys = queries.keys(benchmark).stream()
                .filter(k -> k.key().valueOf(q.param()) != null)
                .toList();
        if (keys.isEmpty()) {
            return List.of();
        }
        Map<String, KeyRow> byId = new HashMap<>();
        keys.forEach(k -> byId.put(k.keyId(), k));
        List<String> keyIds = keys.stream().map(KeyRow::keyId).limit(500).toList();
        List<Queries.MeasuredRow> rows = "measured".equals(source)
                ? queries.measuredIncludingFailedChecks(keyIds, q.metric())
                : queries.leaderboard(keyIds, q.metric()).stream()
                        .map(r -> new Queries.MeasuredRow(r, 0))
                        .toList();
        Map<String, Series> out = new LinkedHashMap<>();
        for (Queries.MeasuredRow m : rows) {
            LeaderboardRow r = m.row();
            if (!source.equals(r.source()) || r.mean() == null) {
                continue;
            }
            KeyRow k = byId.get(r.keyId());
            Map<String, String> rest = ComparisonService.rest(k.key(), q.param());
            Series series = out.computeIfAbsent(
                    r.deviceId() + "\n" + rest,
                    x -> new Series(r.deviceId(), source, rest, new HashMap<>(), new int[1]));
            series.rows().put(k.key().valueOf(q.param()), r);
            series.runsFailingChecks()[0] += m.runsFailingChecks();
        }
        return List.copyOf(out.values());
    }

    private static List<LocalView.Curve> curves(List<Series> series, List<String> values, String base) {
        Set<String> varying = varying(series);
        String common = common(series, varying);
        List<LocalView.Curve> out = new ArrayList<>();
        for (Series s : series) {
            LeaderboardRow at = s.rows().get(base);
            boolean normalisable = at != null && at.mean() != null && at.mean() > 0;
            List<LocalView.Point> points = new ArrayList<>();
            for (String v : values) {
                points.add(point(v, s.rows().get(v), normalisable ? at : null));
            }
            String setting = setting(s, varying);
            List<String> notes = new ArrayList<>();
            if (!setting.equals(common)) {
                notes.add("different setting (" + setting + "), kept separate");
            }
            if (!normalisable) {
                notes.add("no value at " + base + ", not normalised");
            }
            if (s.runsFailingChecks()[0] > 0) {
                notes.add(s.runsFailingChecks()[0] + " of its runs failed a validity check (see the runs below); "
                        + "leaderboards leave those out");
            }
            out.add(new LocalView.Curve(
                    s.deviceId(), Labels.device(s.deviceId()), s.source(), setting, String.join("; ", notes), points));
        }
        out.sort(Comparator.comparing((LocalView.Curve c) -> !c.note().isEmpty())
                .thenComparing(LocalView.Curve::deviceLabel)
                .thenComparing(LocalView.Curve::setting));
        return out.size() > MAX_CURVES ? out.subList(0, MAX_CURVES) : out;
    }

    /** The dimensions in which this source's curves differ from each other label each curve; the rest is common. */
    private static Set<String> varying(List<Series> series) {
        Set<String> varying = new TreeSet<>();
        for (Series a : series) {
            for (Series b : series) {
                varying.addAll(ComparisonService.differences(a.rest(), b.rest()));
            }
        }
        return varying;
    }

    /** The setting most curves share (then the one with most points) is the common one; others are marked. */
    private static String common(List<Series> series, Set<String> varying) {
        Map<String, long[]> weight = new HashMap<>();
        series.forEach(s -> {
            long[] w = weight.computeIfAbsent(setting(s, varying), x -> new long[2]);
            w[0]++;
            w[1] += s.rows().size();
        });
        return weight.entrySet().stream()
                .max(Comparator.<Map.Entry<String, long[]>>comparingLong(e -> e.getValue()[0])
                        .thenComparingLong(e -> e.getValue()[1])
                        .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .map(Map.Entry::getKey)
                .orElse("");
    }

    /** The point at {@code v} of row {@code r} (null where there is none), normalised to {@code at} where not null. */
    private static LocalView.Point point(String v, LeaderboardRow r, LeaderboardRow at) {
        if (r == null) {
            return new LocalView.Point(v, null, null, 0, 0, null, null, null, null);
        }
        BigDecimal ratio = at == null
                ? null
                : BigDecimal.valueOf(r.mean()).divide(BigDecimal.valueOf(at.mean()), MathContext.DECIMAL64);
        return new LocalView.Point(
                v,
                r.keyId(),
                r.mean(),
                r.n(),
                r.runs(),
                r.ci95Low(),
                r.ci95High(),
                ratio == null ? null : ratio.doubleValue(),
                ratio == null ? null : ratio.setScale(2, RoundingMode.HALF_UP).toPlainString());
    }

    private static String setting(Series s, Set<String> varying) {
        return varying.stream()
                .filter(n -> s.rest().containsKey(n))
                .map(n -> n + "=" + s.rest().get(n))
                .collect(Collectors.joining(", "));
    }

    private static List<String> numericOnly(List<String> values) {
        return values.stream()
                .filter(v -> {
                    try {
                        Double.parseDouble(v);
                        return true;
                    } catch (NumberFormatException e) {
                        return false;
                    }
                })
                .toList();
    }

    /** Only http(s) links leave the site; anything else from a claim file is shown as text, not linked. */
    private static String safeUrl(String url) {
        return url != null && (url.startsWith("https://") || url.startsWith("http://")) ? url : null;
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
