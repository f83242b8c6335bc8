package dev.podium.query.view;

import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Statistics;
import dev.podium.query.data.Catalog;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.LeaderboardRow;
import dev.podium.query.data.Queries;
import dev.podium.query.data.SoftwareVersions;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Builds a leaderboard: one comparison key and one metric at a time, so results with different keys are never ranked
 * together. The filters narrow the keys on offer; the framework-version filter recomputes the rows from the results of
 * the runs with that version the way ingest computes a leaderboard row: one value per run (its mean), best = the best run.
 */
@ApplicationScoped
public class LeaderboardService {

    static final String WORKERS = "dataloader_num_workers";
    private static final List<String> SORTS = List.of("mean", "best", "n", "runs", "cv", "ci", "device");

    private final Queries queries;
    private final Catalog catalog;
    private final SoftwareVersions softwareVersions;
    @jakarta.inject.Inject
    dev.podium.query.stats.LeaderboardExtrasService extras;

    public LeaderboardService(Queries queries, Catalog catalog, SoftwareVersions softwareVersions) {
        this.queries = queries;
        this.catalog = catalog;
        this.softwareVersions = softwareVersions;
    }

    public LeaderboardView build(LeaderboardQuery q) {
        List<String> benchmarks = catalog.benchmarks();
        String benchmark = q.benchmark() != null && benchmarks.contains(q.benchmark()) ? q.benchmark()
                : benchmarks.isEmpty() ? null : benchmarks.get(0);
        List<KeyRow> allKeys = benchmark == null ? List.of() : catalog.keys(benchmark);
        String source = "measured".equals(q.source()) || "published".equals(q.source()) ? q.source() : null;
        Queries.MetricKeys metricKeys = benchmark == null ? new Queries.MetricKeys(List.of(), Map.of()) : catalog.metricKeys(benchmark, source);
        List<String> metrics = metricKeys.metrics();
        String metric = Metrics.choose(q.metric(), metrics);

        List<KeyRow> filtered = allKeys.stream()
                .filter(k -> matches(k.key(), ComparisonKey.SCENARIO, q.scenario()))
                .filter(k -> matches(k.key(), ComparisonKey.PRECISION, q.precision()))
                .filter(k -> matches(k.key(), ComparisonKey.BATCH_SIZE, q.batch()))
                .filter(k -> matches(k.key(), WORKERS, q.workers()))
                .toList();
        Set<String> withRows = metricKeys.keys(metric);
        List<KeyRow> candidates = filtered.stream().filter(k -> withRows.contains(k.keyId())).toList();
        KeyRow selected = candidates.stream().filter(k -> k.keyId().equals(q.key())).findFirst()
                .orElse(candidates.isEmpty() ? null : candidates.get(0));

        String software = q.software() == null || q.software().isBlank() ? null : q.software();
        List<LeaderboardRow> rows = new ArrayList<>();
        if (selected != null) {
            rows = software != null ? fromRuns(selected, metric, software)
                    : q.includeFailing() ? withFailingRuns(benchmark, selected.keyId(), metric)
                    : catalog.leaderboard(benchmark, selected.keyId(), metric);
        }
        String unit = rows.isEmpty() ? null : rows.get(0).unit();
        String direction = rows.isEmpty() ? null : rows.get(0).direction();
        rows = rows.stream().filter(r -> source == null || source.equals(r.source())).toList();

        String sort = q.sort() != null && SORTS.contains(q.sort()) ? q.sort() : "mean";
        String dir = "asc".equals(q.dir()) || "desc".equals(q.dir()) ? q.dir() : LeaderboardView.defaultDir(sort, direction);
        List<LeaderboardRow> sorted = new ArrayList<>(rows);
        sorted.sort(comparator(sort, dir));
        List<LeaderboardEntry> entries = new ArrayList<>();
        for (LeaderboardRow r : sorted) {
            entries.add(new LeaderboardEntry(entries.size() + 1, r.deviceId(), Labels.device(r.deviceId()), r.source(), r.runs(), r.n(),
                    r.mean(), r.ci95Low(), r.ci95High(), r.best(), r.cv()));
        }

        LeaderboardQuery effective = new LeaderboardQuery(benchmark, selected == null ? null : selected.keyId(), metric,
                q.scenario(), q.precision(), q.batch(), q.workers(), software, source, sort, dir,
                q.includeFailing() ? LeaderboardQuery.INCLUDE_FAILING : null);
        List<KeyOption> keyOptions = candidates.stream().limit(200).map(k -> new KeyOption(k.keyId(), k.canonical(),
                k.dimensions(), selected != null && selected.keyId().equals(k.keyId()),
                new LeaderboardQuery(benchmark, k.keyId(), metric, q.scenario(), q.precision(), q.batch(), q.workers(), software,
                        source, sort, dir).link().build())).toList();
        KeyOption keyOption = keyOptions.stream().filter(KeyOption::selected).findFirst().orElse(null);
        LeaderboardView view = new LeaderboardView(effective,
                options(benchmarks, benchmark),
                options(metrics, metric),
                options(distinct(allKeys, ComparisonKey.SCENARIO), q.scenario()),
                options(distinct(allKeys, ComparisonKey.PRECISION), q.precision()),
                options(distinct(allKeys, ComparisonKey.BATCH_SIZE), q.batch()),
                options(distinct(allKeys, WORKERS), q.workers()),
                options(selected == null ? List.of() : softwareVersions.of(selected.keyId()), software),
                options(List.of("measured", "published"), source),
                keyOptions, keyOption, unit, direction, sort, dir, entries);
        return extras == null || selected == null ? view : view.withExtras(extras.of(view, selected));
    }

    /** Published rows as stored, measured rows recomputed over every completed run, those failing a validity check too. */
    private List<LeaderboardRow> withFailingRuns(String benchmark, String keyId, String metric) {
        List<LeaderboardRow> rows = new ArrayList<>(catalog.leaderboard(benchmark, keyId, metric).stream()
                .filter(r -> "published".equals(r.source())).toList());
        catalog.measuredIncludingFailedChecks(List.of(keyId), metric).forEach(m -> rows.add(m.row()));
        return rows;
    }

    private List<LeaderboardRow> fromRuns(KeyRow key, String metric, String software) {
        Map<String, List<Queries.ResultWithDevice>> byDevice = queries.resultsWithSoftware(key.keyId(), metric, software).stream()
                .filter(r -> r.mean() != null && r.deviceId() != null)
                .collect(Collectors.groupingBy(Queries.ResultWithDevice::deviceId, LinkedHashMap::new, Collectors.toList()));
        List<LeaderboardRow> rows = new ArrayList<>();
        byDevice.forEach((device, results) -> {
            Queries.ResultWithDevice first = results.get(0);
            boolean lower = Labels.lowerIsBetter(first.direction());
            Statistics s = Statistics.of(results.stream().map(Queries.ResultWithDevice::mean).toList());
            double best = lower ? s.min() : s.max();
            int n = results.stream().mapToInt(r -> r.n() == null ? 0 : r.n()).sum();
            rows.add(new LeaderboardRow(key.keyId(), metric, device, "measured", key.benchmark(), first.unit(), first.direction(),
                    results.size(), n, s.mean(), s.ci95Low(), s.ci95High(), best, s.cv(), null));
        });
        return rows;
    }

    private static Comparator<LeaderboardRow> comparator(String sort, String dir) {
        Comparator<LeaderboardRow> c = switch (sort) {
            case "best" -> nullsLast(LeaderboardRow::best);
            case "n" -> Comparator.comparingInt(LeaderboardRow::n);
            case "runs" -> Comparator.comparingInt(LeaderboardRow::runs);
            case "cv" -> nullsLast(LeaderboardRow::cv);
            case "ci" -> nullsLast(r -> r.ci95High() == null || r.ci95Low() == null ? null : r.ci95High() - r.ci95Low());
            case "device" -> Comparator.comparing(r -> Labels.device(r.deviceId()));
            default -> nullsLast(LeaderboardRow::mean);
        };
        if ("desc".equals(dir)) {
            c = c.reversed();
        }
        return c.thenComparing(LeaderboardRow::deviceId).thenComparing(LeaderboardRow::source);
    }

    private static Comparator<LeaderboardRow> nullsLast(Function<LeaderboardRow, Double> f) {
        return Comparator.comparing(f, Comparator.nullsFirst(Comparator.naturalOrder()));
    }

    private static boolean matches(ComparisonKey key, String dimension, String wanted) {
        return wanted == null || wanted.isBlank() || wanted.equals(key.valueOf(dimension));
    }

    private static List<String> distinct(List<KeyRow> keys, String dimension) {
        Set<String> values = new TreeSet<>(Labels::compareValues);
        keys.forEach(k -> {
            String v = k.key().valueOf(dimension);
            if (v != null) {
                values.add(v);
            }
        });
        return List.copyOf(values);
    }

    static List<Option> options(List<String> values, String selected) {
        return values.stream().map(v -> new Option(v, v, v.equals(selected))).toList();
    }
}
