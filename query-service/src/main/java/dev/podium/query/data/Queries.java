package dev.podium.query.data;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.admin.CatalogKind;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.published.PublishedClaim;
import dev.podium.query.config.QueryConfig;
import dev.podium.query.stats.RequestPercentile;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.IntFunction;
import javax.sql.DataSource;

/**
 * Every SQL statement of query-service's pages (but the cells of {@link CellQueries}). Each one is bounded (a LIMIT or a
 * key lookup) and filters on the leading columns of an index: proj_leaderboard_row (key_id, metric, ...) and (benchmark,
 * metric, key_id, source), proj_metric_key (benchmark, metric, ...) and (key_id, metric), proj_comparison_key
 * (benchmark), proj_result (run_id, metric), proj_run (run_id), (started_position DESC), proj_run_event (run_id, seq),
 * proj_rank_benchmark (benchmark), proj_rank_key (benchmark, key_id), proj_rank_device (device_id). No page reads
 * results or samples beyond one run's, nor any event's payload.
 *
 * <p>Public lists put what has counted results first: a writer can name as many benchmarks, keys and devices as it
 * sends RunStarted records, and none of those may push out one with results. A counted run is a completed, valid, not
 * retracted run with a leaderboard row; what ranks first is what the most agents have counted runs of, then what has
 * the most counted runs ({@code proj_rank_*}, one row an entry), so that one enrolled agent cannot put its own
 * benchmark first by measuring it on many devices. Then come the counted leaderboard rows, as {@code proj_metric_key}'s
 * measured device lists hold them (a few rows a key, where counting them would read every leaderboard row), then
 * published rows, then the rest by name, of which a list reads no more than it shows.
 *
 * <p>What an admin hid ({@code proj_hidden_catalog}) is on no public list: each list leaves it out with one primary-key
 * probe per row it reads ({@link Catalog}), and a hidden benchmark or key asked for by name is not there (404).
 */
@ApplicationScoped
public class Queries {

    /** The most benchmarks or devices a list holds. */
    public static final int MAX_LISTED = 1000;
    /** The most keys of a benchmark a list holds. */
    public static final int MAX_KEYS = 2000;

    /** The most metrics a benchmark's list holds; the others are found by name. */
    public static final int MAX_METRICS = 100;

    private static final String RUN_COLUMNS =
            "run_id, benchmark, key_id, device_id, device_count, agent_id, status, valid, "
                    + "retracted, started_at, duration_seconds";

    private final Jdbc jdbc;
    private final QueryConfig config;
    private final ObjectMapper mapper = EventCodec.newMapper();

    public Queries(DataSource dataSource, QueryConfig config) {
        this.jdbc = new Jdbc(dataSource);
        this.config = config;
    }

    /**
     * Benchmarks, those with counted runs from the most agents first, then with the most counted runs, then with the most
     * counted leaderboard rows under one metric (key and device pairs with counted runs), then by published rows, then
     * the rest by name.
     */
    public List<String> benchmarks() {
        List<String> ranked =
                jdbc.list("""
                SELECT m.benchmark FROM (
                    SELECT benchmark, sum(cardinality(device_ids)) FILTER (WHERE source = 'measured') AS measured,
                           sum(cardinality(device_ids)) AS listed
                    FROM proj_metric_key GROUP BY benchmark, metric) AS m
                LEFT JOIN proj_rank_benchmark a ON a.benchmark = m.benchmark
                WHERE %s
                GROUP BY m.benchmark, a.agents, a.counted_runs
                ORDER BY a.agents DESC NULLS LAST, a.counted_runs DESC NULLS LAST, max(measured) DESC NULLS LAST,
                         max(listed) DESC, m.benchmark
                LIMIT ?""".formatted(Catalog.shownBenchmark("m.benchmark")), rs -> rs.getString(1), MAX_LISTED);
        return withTheRest(
                ranked,
                MAX_LISTED,
                n -> jdbc.list("""
                        SELECT benchmark FROM proj_benchmark b
                        WHERE NOT EXISTS (SELECT 1 FROM proj_metric_key k WHERE k.benchmark = b.benchmark) AND %s
                        ORDER BY benchmark LIMIT ?""".formatted(Catalog.shownBenchmark("b.benchmark")), rs -> rs.getString(1), n));
    }

    /** Benchmarks no admin hid whose name holds {@code text} (any case), by name: at most {@code limit}. */
    public List<String> findBenchmarks(String text, int limit) {
        return jdbc.list("""
                SELECT benchmark FROM proj_benchmark b WHERE strpos(lower(benchmark), lower(?)) > 0 AND %s
                ORDER BY benchmark LIMIT ?""".formatted(Catalog.shownBenchmark("b.benchmark")), rs -> rs.getString(1), text, limit);
    }

    /**
     * Devices no admin hid whose id or label holds {@code text} (any case), known ones ({@link Catalog#knownDevice})
     * first, then by id: at most {@code limit}.
     */
    public List<DeviceRow> findDevices(String text, int limit) {
        return jdbc.list(
                """
                SELECT device_id, vendor, label FROM proj_device d
                WHERE (strpos(lower(device_id), lower(?)) > 0 OR strpos(lower(coalesce(label, '')), lower(?)) > 0) AND %s
                ORDER BY NOT %s, device_id LIMIT ?""".formatted(Catalog.shownDevice("d.device_id"), Catalog.knownDevice("d.device_id")),
                Queries::device,
                text,
                text,
                limit);
    }

    /** Whether there is a benchmark of that name that no admin hid. */
    public boolean benchmarkExists(String benchmark) {
        return jdbc.one(
                        "SELECT 1 FROM proj_benchmark b WHERE benchmark = ? AND "
                                + Catalog.shownBenchmark("b.benchmark"),
                        rs -> 1,
                        benchmark)
                .isPresent();
    }

    /** Whether an admin hid the entry: a page asking for it by name answers 404, as for one there is none of. */
    public boolean hidden(CatalogKind kind, String name) {
        return jdbc.one(
                        "SELECT 1 FROM proj_hidden_catalog WHERE kind = ? AND name = ? AND hidden",
                        rs -> 1,
                        kind.text(),
                        name)
                .isPresent();
    }

    /**
     * Devices no admin hid, those the alias table knows ({@link Catalog#knownDevice}) before the others, then those with
     * counted runs from the most agents, then with the most counted runs, then those with counted leaderboard rows, then
     * those with published rows, then the rest, each by id. The devices with rows are found by one step of
     * {@code proj_leaderboard_row (device_id, source)} each (a loose index scan), and their agents and runs by one probe of
     * {@code proj_rank_device} each: counting their rows would read every leaderboard row.
     */
    public List<DeviceRow> devices() {
        List<DeviceRow> ranked = jdbc.list(
                """
                WITH RECURSIVE with_rows(device_id) AS (
                    SELECT min(device_id) FROM proj_leaderboard_row
                    UNION ALL
                    SELECT (SELECT min(l.device_id) FROM proj_leaderboard_row l WHERE l.device_id > w.device_id)
                    FROM with_rows w WHERE w.device_id IS NOT NULL)
                SELECT d.device_id, d.vendor, d.label FROM with_rows w
                CROSS JOIN LATERAL (SELECT * FROM proj_device WHERE device_id = w.device_id OFFSET 0) AS d
                LEFT JOIN proj_rank_device a ON a.device_id = d.device_id
                WHERE %s
                ORDER BY NOT %s,
                         a.agents DESC NULLS LAST,
                         a.counted_runs DESC NULLS LAST,
                         NOT EXISTS (SELECT 1 FROM proj_leaderboard_row l
                                     WHERE l.device_id = d.device_id AND l.source = 'measured'),
                         d.device_id
                LIMIT ?""".formatted(Catalog.shownDevice("d.device_id"), Catalog.knownDevice("d.device_id")),
                Queries::device,
                MAX_LISTED);
        List<DeviceRow> all = withTheRest(
                ranked,
                MAX_LISTED,
                n -> jdbc.list(
                        """
                        SELECT device_id, vendor, label FROM proj_device d
                        WHERE NOT EXISTS (SELECT 1 FROM proj_leaderboard_row l WHERE l.device_id = d.device_id) AND %s
                        ORDER BY NOT %s, device_id LIMIT ?""".formatted(Catalog.shownDevice("d.device_id"), Catalog.knownDevice("d.device_id")),
                        Queries::device,
                        n));
        // The known devices without rows too come before every device the alias table does not know.
        return all.stream().sorted(Comparator.comparing(d -> !d.knownDevice())).toList();
    }

    public Optional<DeviceRow> device(String deviceId) {
        return jdbc.one(
                "SELECT device_id, vendor, label FROM proj_device WHERE device_id = ?", Queries::device, deviceId);
    }

    /**
     * A benchmark's keys, those with counted runs from the most agents first, then with the most counted runs, then with
     * counted leaderboard rows of the most devices under one metric, then by published rows, then those with completed
     * runs that failed a validity check (the local page shows them), then the rest, each by canonical text: at most
     * {@link #MAX_KEYS}.
     */
    public List<KeyRow> keys(String benchmark) {
        List<KeyRow> ranked =
                jdbc.list("""
                SELECT k.key_id, k.benchmark, k.canonical, k.dimensions::text FROM (
                    SELECT key_id, max(cardinality(device_ids)) FILTER (WHERE source = 'measured') AS measured,
                           max(cardinality(device_ids)) AS listed
                    FROM proj_metric_key WHERE benchmark = ? GROUP BY key_id) AS c
                LEFT JOIN proj_rank_key a ON a.benchmark = ? AND a.key_id = c.key_id
                CROSS JOIN LATERAL (SELECT * FROM proj_comparison_key WHERE key_id = c.key_id OFFSET 0) AS k
                WHERE %s
                ORDER BY a.agents DESC NULLS LAST, a.counted_runs DESC NULLS LAST,
                         c.measured DESC NULLS LAST, c.listed DESC, k.canonical
                LIMIT ?""".formatted(Catalog.shownKey("k.key_id")), this::key, benchmark, benchmark, MAX_KEYS);
        return withTheRest(
                ranked, MAX_KEYS, n -> jdbc.list("""
                        SELECT key_id, benchmark, canonical, dimensions::text FROM proj_comparison_key k
                        WHERE benchmark = ? AND NOT EXISTS (SELECT 1 FROM proj_metric_key m WHERE m.key_id = k.key_id)
                          AND %s
                        ORDER BY NOT EXISTS (SELECT 1 FROM proj_leaderboard_all_runs_row a WHERE a.key_id = k.key_id),
                                 canonical
                        LIMIT ?""".formatted(Catalog.shownKey("k.key_id")), this::key, benchmark, n));
    }

    /**
     * A benchmark's keys no admin hid whose canonical text holds {@code text} (any case), by canonical text: at most
     * {@code limit}. Every key is reachable this way, past what {@link #keys} lists.
     */
    public List<KeyRow> findKeys(String benchmark, String text, int limit) {
        return jdbc.list("""
                SELECT key_id, benchmark, canonical, dimensions::text FROM proj_comparison_key k
                WHERE benchmark = ? AND strpos(lower(canonical), lower(?)) > 0 AND %s
                ORDER BY canonical LIMIT ?""".formatted(Catalog.shownKey("k.key_id")), this::key, benchmark, text, limit);
    }

    /**
     * {@code ranked}, then what {@code rest} reads (given how many more fit in {@code max}) but those already listed: the
     * two reads may see different commits.
     */
    private static <T> List<T> withTheRest(List<T> ranked, int max, IntFunction<List<T>> rest) {
        if (ranked.size() >= max) {
            return ranked;
        }
        Set<T> out = new LinkedHashSet<>(ranked);
        out.addAll(rest.apply(max - ranked.size()));
        return out.stream().limit(max).toList();
    }

    /** A key no admin hid, of a benchmark no admin hid. */
    public Optional<KeyRow> key(String keyId) {
        return jdbc.one(
                "SELECT key_id, benchmark, canonical, dimensions::text FROM proj_comparison_key k WHERE key_id = ? AND "
                        + Catalog.shownKey("k.key_id") + " AND " + Catalog.shownBenchmark("k.benchmark"),
                this::key,
                keyId);
    }

    /** A benchmark's metrics, ranked as {@link #metrics(String, String)} ranks them, from both sources. */
    public List<String> metrics(String benchmark) {
        return metrics(benchmark, null);
    }

    /**
     * The metrics of a benchmark with rows of one source or (null) both under a key no admin hid: first those the most
     * agents have counted runs of, then by those runs ({@code proj_rank_metric}), then the rest (published figures only,
     * runs not counted) by name; at most {@link #MAX_METRICS}. One agent reporting made-up metrics cannot push another's
     * down; every metric is still reachable by name ({@link #metricExists}) and by search ({@link #findMetrics}).
     */
    public List<String> metrics(String benchmark, String source) {
        String withRows = """
                EXISTS (SELECT 1 FROM proj_metric_key k
                        WHERE k.benchmark = ? AND k.metric = %s AND (?::text IS NULL OR k.source = ?::text) AND %s)""";
        List<String> ranked = jdbc.list(
                "SELECT r.metric FROM proj_rank_metric r WHERE r.benchmark = ? AND "
                        + withRows.formatted("r.metric", Catalog.shownKey("k.key_id"))
                        + " ORDER BY r.agents DESC, r.counted_runs DESC, r.metric LIMIT ?",
                rs -> rs.getString("metric"),
                benchmark,
                benchmark,
                source,
                source,
                MAX_METRICS);
        return withTheRest(
                ranked,
                MAX_METRICS,
                n -> jdbc.list(
                        """
                        SELECT DISTINCT k.metric FROM proj_metric_key k
                        WHERE k.benchmark = ? AND (?::text IS NULL OR k.source = ?::text) AND %s
                          AND NOT EXISTS (SELECT 1 FROM proj_rank_metric r WHERE r.benchmark = ? AND r.metric = k.metric)
                        ORDER BY k.metric LIMIT ?""".formatted(Catalog.shownKey("k.key_id")),
                        rs -> rs.getString("metric"),
                        benchmark,
                        source,
                        source,
                        benchmark,
                        n));
    }

    /**
     * Whether the benchmark has rows for the metric, of either source, under a key no admin hid: counted rows, or rows
     * of runs that all failed a check (which a leaderboard shows when asked to include them), found by a primary-key
     * probe per key of the benchmark.
     */
    public boolean metricExists(String benchmark, String metric) {
        return jdbc.one(
                        """
                        SELECT 1 AS found FROM proj_metric_key k WHERE benchmark = ? AND metric = ? AND %1$s
                        UNION ALL
                        SELECT 1 FROM proj_comparison_key k
                        WHERE k.benchmark = ? AND %1$s
                          AND EXISTS (SELECT 1 FROM proj_leaderboard_all_runs_row a
                                      WHERE a.key_id = k.key_id AND a.metric = ?)
                        LIMIT 1""".formatted(Catalog.shownKey("k.key_id")),
                        rs -> rs.getInt("found"),
                        benchmark,
                        metric,
                        benchmark,
                        metric)
                .isPresent();
    }

    /** A benchmark's metrics holding {@code text} (any case), by name: at most {@code limit}. */
    public List<String> findMetrics(String benchmark, String text, int limit) {
        return jdbc.list(
                "SELECT DISTINCT metric FROM proj_metric_key k WHERE benchmark = ? AND strpos(lower(metric), lower(?)) > 0 "
                        + "AND " + Catalog.shownKey("k.key_id") + " ORDER BY metric LIMIT ?",
                rs -> rs.getString("metric"),
                benchmark,
                text,
                limit);
    }

    /** Of the keys given, those with rows for the metric from one source or (null) both. */
    public Set<String> keysWithRows(String benchmark, String metric, String source, List<String> keyIds) {
        if (metric == null || keyIds.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.list(
                "SELECT DISTINCT key_id FROM proj_metric_key WHERE benchmark = ? AND metric = ? "
                        + "AND (?::text IS NULL OR source = ?::text) AND key_id = ANY(?)",
                rs -> rs.getString("key_id"),
                benchmark,
                metric,
                source,
                source,
                keyIds.toArray(String[]::new)));
    }

    /** One key's leaderboard rows for a metric, both sources: at most {@code max-rows}, in primary-key order. */
    public List<LeaderboardRow> leaderboardOfKey(String keyId, String metric) {
        return jdbc.list(
                "SELECT * FROM proj_leaderboard_row l WHERE key_id = ? AND metric = ? AND "
                        + Catalog.shownDevice("l.device_id") + " ORDER BY device_id, source LIMIT ?",
                Queries::leaderboardRow,
                keyId,
                metric,
                config.maxRows());
    }

    /** The leaderboard rows of keys for a metric, both sources: at most {@code max-rows} a key. */
    public List<LeaderboardRow> leaderboard(List<String> keyIds, String metric) {
        return jdbc.list(
                "SELECT * FROM proj_leaderboard_row l WHERE key_id = ANY(?) AND metric = ? AND "
                        + Catalog.shownDevice("l.device_id") + " LIMIT ?",
                Queries::leaderboardRow,
                keyIds.toArray(String[]::new),
                metric,
                config.maxRows() * Math.max(1, keyIds.size()));
    }

    /** A device's rows from one source. */
    public record DeviceSource(String deviceId, String source) {}

    /**
     * The rows with a positive mean of keys for a metric, from one source or (null) both, of the devices given (all when
     * none are), but those of the devices and sources {@code without}: the curves a comparison shows under the groups it
     * does not show, for the devices that have none under the group it shows. Which rows those are comes from the keys'
     * device lists ({@code proj_metric_key}), so the rows left out are never read (the {@code OFFSET 0} keeps the planner
     * from joining them first); the others are read by primary key. At most {@code max-rows} a key.
     */
    public List<LeaderboardRow> curveRowsWithout(
            List<String> keyIds, String metric, String source, List<String> devices, List<DeviceSource> without) {
        String[] deviceIds = devices.toArray(String[]::new);
        return jdbc.list(
                """
                SELECT l.* FROM (
                    SELECT k.key_id, k.metric, d.device_id, k.source FROM proj_metric_key k
                    CROSS JOIN LATERAL unnest(k.device_ids) AS d(device_id)
                    WHERE k.key_id = ANY(?) AND k.metric = ? AND (?::text IS NULL OR k.source = ?::text)
                      AND (cardinality(?::text[]) = 0 OR d.device_id = ANY(?::text[]))
                      AND NOT EXISTS (SELECT 1 FROM unnest(?::text[], ?::text[]) AS x(device_id, source)
                                      WHERE x.device_id = d.device_id AND x.source = k.source)
                    OFFSET 0) AS c
                JOIN proj_leaderboard_row l ON l.key_id = c.key_id AND l.metric = c.metric AND l.device_id = c.device_id
                                           AND l.source = c.source
                WHERE l.mean > 0 AND %s
                LIMIT ?""".formatted(Catalog.shownDevice("l.device_id")),
                Queries::leaderboardRow,
                keyIds.toArray(String[]::new),
                metric,
                source,
                source,
                deviceIds,
                deviceIds,
                without.stream().map(DeviceSource::deviceId).toArray(String[]::new),
                without.stream().map(DeviceSource::source).toArray(String[]::new),
                config.maxRows() * Math.max(1, keyIds.size()));
    }

    /**
     * Measured statistics per key and device like {@link #leaderboard(List, String)}, but over every completed, not
     * retracted run, counting those that failed a validity check, as ingest keeps them: the local page shows a user's own
     * runs even when a check failed (marked), where leaderboards leave them out.
     */
    public List<MeasuredRow> measuredIncludingFailedChecks(List<String> keyIds, String metric) {
        return jdbc.list(
                "SELECT key_id, metric, device_id, 'measured' AS source, benchmark, unit, direction, runs, n, mean, "
                        + "ci95_low, ci95_high, best, cv, last_run_at, failing FROM proj_leaderboard_all_runs_row a "
                        + "WHERE key_id = ANY(?) AND metric = ? AND " + Catalog.shownDevice("a.device_id") + " LIMIT ?",
                rs -> new MeasuredRow(leaderboardRow(rs), rs.getInt("failing")),
                keyIds.toArray(String[]::new),
                metric,
                config.maxRows() * 10);
    }

    /** A measured row and how many of its runs failed a validity check. */
    public record MeasuredRow(LeaderboardRow row, int runsFailingChecks) {}

    public List<LeaderboardRow> leaderboardOfDevice(String deviceId) {
        return jdbc.list(
                "SELECT * FROM proj_leaderboard_row l WHERE device_id = ? AND " + Catalog.shownKey("l.key_id") + " AND "
                        + Catalog.shownBenchmark("l.benchmark") + " ORDER BY benchmark, metric, key_id LIMIT ?",
                Queries::leaderboardRow,
                deviceId,
                config.maxRows());
    }

    /**
     * The runs whose RunStarted ingest stored last (its event store position), not those that claim the latest start: a
     * writer dates its events, and a run dated a day ahead would stay on top for a day.
     */
    public List<RunSummary> recentRuns(int limit) {
        return jdbc.list(
                "SELECT " + RUN_COLUMNS + " FROM proj_run r WHERE " + Catalog.shownRun("r")
                        + " ORDER BY started_position DESC NULLS LAST LIMIT ?",
                Queries::run,
                limit);
    }

    /** A device's runs, in the order of {@link #recentRuns(int)}. */
    public List<RunSummary> recentRunsOfDevice(String deviceId, int limit) {
        return jdbc.list(
                "SELECT " + RUN_COLUMNS
                        + " FROM proj_run r WHERE device_id = ? AND " + Catalog.shownRun("r")
                        + " ORDER BY started_position DESC NULLS LAST LIMIT ?",
                Queries::run,
                deviceId,
                limit);
    }

    /** A benchmark's runs, in the order of {@link #recentRuns(int)}. */
    public List<RunSummary> recentRunsOfBenchmark(String benchmark, int limit) {
        return jdbc.list(
                "SELECT " + RUN_COLUMNS
                        + " FROM proj_run r WHERE benchmark = ? AND " + Catalog.shownRun("r")
                        + " ORDER BY started_position DESC NULLS LAST LIMIT ?",
                Queries::run,
                benchmark,
                limit);
    }

    public Optional<RunDetail> run(UUID runId) {
        return jdbc.one(
                "SELECT " + RUN_COLUMNS + ", stream_id, job_id, lease_epoch, host_key, workload::text, software::text, "
                        + "accelerators::text, host::text, finished_at, validity::text, failure::text FROM proj_run WHERE run_id = ?",
                rs -> new RunDetail(
                        run(rs),
                        rs.getString("stream_id"),
                        rs.getObject("job_id", UUID.class),
                        Jdbc.integer(rs, "lease_epoch"),
                        rs.getString("host_key"),
                        json(rs.getString("workload")),
                        json(rs.getString("software")),
                        json(rs.getString("accelerators")),
                        json(rs.getString("host")),
                        Jdbc.instant(rs, "finished_at"),
                        json(rs.getString("validity")),
                        json(rs.getString("failure"))),
                runId);
    }

    /**
     * The accelerators a run's RunStarted named, as ingest keeps them for not_throttled (identity, enforced and default
     * power limit, highest clocks), by index; none when the agent reported none.
     */
    public List<AcceleratorDevice> runDevices(UUID runId) {
        return jdbc.one(
                        "SELECT devices::text FROM proj_run_throttle_head WHERE run_id = ? AND devices IS NOT NULL",
                        rs -> rs.getString(1),
                        runId)
                .map(text -> {
                    try {
                        return mapper.readValue(text, new TypeReference<List<AcceleratorDevice>>() {});
                    } catch (JsonProcessingException e) {
                        throw new IllegalStateException("unreadable run devices: " + e.getOriginalMessage(), e);
                    }
                })
                .map(d -> d.stream()
                        .sorted(Comparator.comparingInt(AcceleratorDevice::index))
                        .toList())
                .orElse(List.of());
    }

    public Optional<RetractionRow> retraction(UUID runId) {
        return jdbc.one(
                "SELECT reason, actor, retracted_at FROM proj_retraction WHERE run_id = ?",
                rs -> new RetractionRow(
                        rs.getString("reason"), rs.getString("actor"), Jdbc.instant(rs, "retracted_at")),
                runId);
    }

    public List<ResultRow> results(UUID runId) {
        return jdbc.list(
                "SELECT * FROM proj_result WHERE run_id = ? ORDER BY metric",
                rs -> new ResultRow(
                        rs.getString("metric"),
                        rs.getString("unit"),
                        rs.getString("direction"),
                        rs.getString("scope"),
                        rs.getBoolean("warmup_excluded"),
                        Jdbc.integer(rs, "n"),
                        Jdbc.dbl(rs, "mean"),
                        Jdbc.dbl(rs, "median"),
                        Jdbc.dbl(rs, "stdev"),
                        Jdbc.dbl(rs, "min"),
                        Jdbc.dbl(rs, "max"),
                        Jdbc.dbl(rs, "ci95_low"),
                        Jdbc.dbl(rs, "ci95_high"),
                        Jdbc.dbl(rs, "cv"),
                        doubles(rs.getArray("raw_values")),
                        RequestPercentile.of(
                                Jdbc.integer(rs, "requests"),
                                percentile(rs, "p50"),
                                percentile(rs, "p90"),
                                percentile(rs, "p99")),
                        Jdbc.integer(rs, "requests") == null && RequestPercentile.toolReported(rs.getString("metric"))),
                runId);
    }

    /**
     * The series of a run that a page draws ({@code kinds}, any case), one row per kind, each read at most
     * {@code maxPoints} points evenly spread over it: of the points ingest stored (every {@code stride}-th sample), every
     * {@code stride * 2^k}-th, for the smallest k that leaves no more than that. However many samples a run sent, and
     * however many kinds, a page reads a bounded number; the limit restates the bound where the page reads, so that no
     * stored row can make it read more.
     */
    public List<SeriesRow> series(UUID runId, List<String> kinds, int maxPoints) {
        return jdbc.list(
                """
                WITH h AS MATERIALIZED (
                    SELECT run_id, series, unit,
                           stride * CASE WHEN kept <= ? THEN 1
                                         ELSE (2 ^ ceil(log(2.0, kept::numeric / ?)))::bigint END AS step
                    FROM (SELECT h.*, (h.samples + h.stride - 1) / h.stride AS kept
                          FROM proj_run_series_head h
                          WHERE h.run_id = ? AND upper(h.series) = ANY(?) ORDER BY h.series LIMIT 64) k)
                SELECT h.series, h.unit, p.t, p.value, p.repetition, p.device
                FROM h CROSS JOIN LATERAL (
                    SELECT array_agg(p.t ORDER BY p.idx) AS t, array_agg(p.value ORDER BY p.idx) AS value,
                           array_agg(p.repetition ORDER BY p.idx) AS repetition,
                           array_agg(p.device ORDER BY p.idx) AS device
                    FROM (SELECT * FROM proj_run_series_point p
                          WHERE p.run_id = h.run_id AND p.series = h.series AND p.idx % h.step = 0
                          ORDER BY p.idx LIMIT ?) p) p
                ORDER BY h.series""",
                rs -> new SeriesRow(rs.getString("series"), rs.getString("unit"), points(rs)),
                maxPoints,
                maxPoints,
                runId,
                kinds.stream().map(k -> k.toUpperCase(Locale.ROOT)).toArray(String[]::new),
                maxPoints);
    }

    /**
     * Up to {@code limit} events of a run after sequence number {@code after} (null: from the first), as ingest summarised
     * them: no payload is read, and the primary key's order serves every page alike.
     */
    public List<EventRow> events(UUID runId, Long after, int limit) {
        return jdbc.list(
                "SELECT seq, type, schema_version, writer, occurred_at, recorded_at, summary FROM proj_run_event "
                        + "WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                rs -> new EventRow(
                        rs.getLong("seq"),
                        rs.getString("type"),
                        rs.getInt("schema_version"),
                        rs.getString("writer"),
                        Jdbc.instant(rs, "occurred_at"),
                        Jdbc.instant(rs, "recorded_at"),
                        rs.getString("summary")),
                runId,
                after == null ? Long.MIN_VALUE : after,
                limit);
    }

    /** How many events of a run ingest summarised, from one row, however many there are. */
    public long eventCount(UUID runId) {
        return jdbc.one("SELECT events FROM proj_run_event_count WHERE run_id = ?", rs -> rs.getLong(1), runId)
                .orElse(0L);
    }

    public List<AgentRow> agents() {
        long windowSeconds = config.onlineWindow().toSeconds();
        return jdbc.list(
                "SELECT coalesce(s.agent_id, a.agent_id) AS agent_id, coalesce(s.pool, a.pool) AS pool, a.agent_version, "
                        + "coalesce(s.hostname, a.hostname) AS hostname, s.device_id, s.state, s.current_job_id, s.current_run_id, "
                        + "s.last_heartbeat_at, coalesce(s.last_heartbeat_at > now() - make_interval(secs => ?), false) AS online "
                        + "FROM agent_status s FULL OUTER JOIN proj_agent a ON a.agent_id = s.agent_id ORDER BY 1 LIMIT 5000",
                rs -> new AgentRow(
                        rs.getString("agent_id"),
                        rs.getString("pool"),
                        rs.getString("agent_version"),
                        rs.getString("hostname"),
                        rs.getString("device_id"),
                        rs.getString("state"),
                        rs.getObject("current_job_id", UUID.class),
                        rs.getObject("current_run_id", UUID.class),
                        Jdbc.instant(rs, "last_heartbeat_at"),
                        rs.getBoolean("online")),
                (double) windowSeconds);
    }

    /** Every published figure and claim of the given sources. */
    public List<PublishedClaim> claimsOfSources(List<String> sources) {
        return jdbc.list(
                "SELECT claim::text FROM proj_published_claim WHERE source = ANY(?) ORDER BY source, position LIMIT 10000",
                rs -> claim(rs.getString(1)),
                (Object) sources.toArray(String[]::new));
    }

    /** Sources with ratio claims or figures about a benchmark. */
    public List<String> claimSources(String benchmark) {
        return jdbc.list(
                "SELECT DISTINCT source FROM proj_published_claim WHERE benchmark = ? ORDER BY 1 LIMIT 100",
                rs -> rs.getString(1),
                benchmark);
    }

    /** Published n/a cells (the publication gave no figure) under the given keys: device id and key id. */
    public List<String[]> notAvailable(List<String> keyIds, String metric) {
        return jdbc.list(
                "SELECT device_id, key_id FROM proj_published_claim p WHERE key_id = ANY(?) AND metric = ? "
                        + "AND value_kind = 'n/a' AND NOT is_ratio AND device_id IS NOT NULL AND "
                        + Catalog.shownDevice("p.device_id") + " LIMIT 10000",
                rs -> new String[] {rs.getString(1), rs.getString(2)},
                keyIds.toArray(String[]::new),
                metric);
    }

    private KeyRow key(ResultSet rs) throws SQLException {
        String benchmark = rs.getString(2);
        return new KeyRow(rs.getString(1), benchmark, rs.getString(3), Keys.parse(benchmark, json(rs.getString(4))));
    }

    private PublishedClaim claim(String json) {
        try {
            return mapper.readValue(json, PublishedClaim.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable published claim: " + e.getOriginalMessage(), e);
        }
    }

    private JsonNode json(String text) {
        if (text == null) {
            return null;
        }
        try {
            return mapper.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable JSON column", e);
        }
    }

    /** A series' points from its four arrays, index-aligned as the query aggregates them; none when it has none. */
    private static List<SeriesRow.Point> points(ResultSet rs) throws SQLException {
        Object[] t = values(rs.getArray("t"));
        Object[] value = values(rs.getArray("value"));
        Object[] repetition = values(rs.getArray("repetition"));
        Object[] device = values(rs.getArray("device"));
        List<SeriesRow.Point> out = new ArrayList<>(t.length);
        for (int i = 0; i < t.length; i++) {
            out.add(new SeriesRow.Point(
                    ((Number) t[i]).doubleValue(), ((Number) value[i]).doubleValue(), (Integer) repetition[i], (Integer)
                            device[i]));
        }
        return out;
    }

    private static Object[] values(Array array) throws SQLException {
        return array == null ? new Object[0] : (Object[]) array.getArray();
    }

    /** A percentile column and its interval's two sides. */
    private static Double[] percentile(ResultSet rs, String p) throws SQLException {
        return new Double[] {Jdbc.dbl(rs, p), Jdbc.dbl(rs, p + "_low"), Jdbc.dbl(rs, p + "_high")};
    }

    private static List<Double> doubles(Array array) throws SQLException {
        if (array == null) {
            return List.of();
        }
        Object[] values = (Object[]) array.getArray();
        List<Double> out = new ArrayList<>(values.length);
        Arrays.stream(values).forEach(v -> out.add(v == null ? null : ((Number) v).doubleValue()));
        return out;
    }

    private static DeviceRow device(ResultSet rs) throws SQLException {
        return new DeviceRow(rs.getString(1), rs.getString(2), rs.getString(3), DeviceAliases.known(rs.getString(1)));
    }

    private static RunSummary run(ResultSet rs) throws SQLException {
        return new RunSummary(
                rs.getObject("run_id", UUID.class),
                rs.getString("benchmark"),
                rs.getString("key_id"),
                rs.getString("device_id"),
                Jdbc.integer(rs, "device_count"),
                rs.getString("agent_id"),
                rs.getString("status"),
                (Boolean) rs.getObject("valid"),
                rs.getBoolean("retracted"),
                Jdbc.instant(rs, "started_at"),
                Jdbc.dbl(rs, "duration_seconds"));
    }

    private static LeaderboardRow leaderboardRow(ResultSet rs) throws SQLException {
        return new LeaderboardRow(
                rs.getString("key_id"),
                rs.getString("metric"),
                rs.getString("device_id"),
                rs.getString("source"),
                rs.getString("benchmark"),
                rs.getString("unit"),
                rs.getString("direction"),
                rs.getInt("runs"),
                rs.getInt("n"),
                Jdbc.dbl(rs, "mean"),
                Jdbc.dbl(rs, "ci95_low"),
                Jdbc.dbl(rs, "ci95_high"),
                Jdbc.dbl(rs, "best"),
                Jdbc.dbl(rs, "cv"),
                Jdbc.instant(rs, "last_run_at"));
    }
}
