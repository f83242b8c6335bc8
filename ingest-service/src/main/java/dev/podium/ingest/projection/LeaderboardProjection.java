package dev.podium.ingest.projection;

import dev.podium.events.model.Direction;
import dev.podium.events.model.RunMeans;
import dev.podium.ingest.store.Columns;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code proj_leaderboard_row}: per (comparison key, metric, device) the runs of completed, valid, not retracted, not
 * superseded runs (one value per run, its mean), and the imported published figures with an exact value. Rows keep the
 * exact sums their figures come from ({@link RunMeans}), so the same rows come out whatever the order and batching of
 * the events: replay reproduces live ingest.
 *
 * <p>A batch that only adds runs, the common case, extends the rows those runs belong to: it reads its new results and
 * the current rows, never the earlier runs, so its cost does not grow with the history. Anything else (a result changed
 * or moved, a run retracted or superseded, a published figure, a row without sums from before they were kept) has its
 * rows recomputed from all their runs.
 */
@ApplicationScoped
public class LeaderboardProjection {

    private static final String MEASURED = "measured";

    private final MetricKeyProjection metricKeys;

    public LeaderboardProjection(MetricKeyProjection metricKeys) {
        this.metricKeys = metricKeys;
    }

    /** A {@code proj_leaderboard_row} row: its figures, and the exact sums they come from. */
    private record LeaderboardRow(
            String keyId,
            String metric,
            String deviceId,
            String source,
            String benchmark,
            String unit,
            String direction,
            int runs,
            int n,
            double mean,
            double ci95Low,
            double ci95High,
            double best,
            double cv,
            Instant lastRunAt,
            BigDecimal meanSum,
            BigDecimal meanSumSquares,
            double meanMin,
            double meanMax,
            UUID firstRunId) {

        static LeaderboardRow of(Touched.KeyMetric pair, String deviceId, String source, Group g) {
            RunMeans m = g.means();
            RunMeans.Figures f = m.figures();
            Direction direction = Direction.HIGHER_IS_BETTER.name().equals(g.direction())
                    ? Direction.HIGHER_IS_BETTER
                    : Direction.LOWER_IS_BETTER;
            return new LeaderboardRow(
                    pair.keyId(),
                    pair.metric(),
                    deviceId,
                    source,
                    g.benchmark(),
                    g.unit(),
                    g.direction(),
                    m.runs(),
                    g.n(),
                    f.mean(),
                    f.ci95Low(),
                    f.ci95High(),
                    m.best(direction),
                    f.cv(),
                    g.last() == null ? null : g.last().toInstant(),
                    m.sum(),
                    m.sumOfSquares(),
                    m.min(),
                    m.max(),
                    g.firstRunId());
        }

        Object key() {
            return List.of(keyId, metric, deviceId, source);
        }
    }

    private static final Columns<LeaderboardRow> ROW = Columns.of(LeaderboardRow.class);
    private static final Columns<Touched.KeyMetric> PAIRS = Columns.of(Touched.KeyMetric.class);
    private static final Columns<Touched.KeyMetricDevice> DEVICES = Columns.of(Touched.KeyMetricDevice.class);

    /** What one run adds to a row. */
    private record Entry(
            UUID runId, String benchmark, String unit, String direction, double mean, int n, Timestamp at) {}

    /**
     * A row's content before its figures: the run means (or published values) as sums, their summed n, the latest
     * run's time, and the benchmark, unit and direction of the entry that comes first (lowest run id, or for published
     * rows first by source and claim id), which for measured rows is {@code firstRunId}.
     */
    private record Group(
            String benchmark, String unit, String direction, RunMeans means, int n, Timestamp last, UUID firstRunId) {

        Group plus(Entry e) {
            boolean first = firstRunId == null || compareAsPostgres(e.runId(), firstRunId) < 0;
            Timestamp latest = last == null || (e.at() != null && e.at().after(last)) ? e.at() : last;
            return new Group(
                    first ? e.benchmark() : benchmark,
                    first ? e.unit() : unit,
                    first ? e.direction() : direction,
                    means.plus(e.mean()),
                    saturatedSum(n, e.n()),
                    latest,
                    first ? e.runId() : firstRunId);
        }

        /** Counts of many runs never wrap round to a negative n: past the largest int the row says that. */
        private static int saturatedSum(int a, int b) {
            return (int) Math.min(Integer.MAX_VALUE, (long) a + b);
        }
    }

    /**
     * Recomputes the rows of the (key, metric) pairs that published figures named (every device), recomputes the rows
     * of the runs whose results changed or left (their own device), and extends the rows that only gained runs; then
     * the devices per key of every pair it recomputed rows of.
     */
    public void recompute(Connection c, Touched touched) throws SQLException {
        Set<Touched.KeyMetric> pairs = new LinkedHashSet<>(touched.keyMetrics());
        Set<Touched.KeyMetricDevice> full = new LinkedHashSet<>(touched.devices());
        Map<Touched.KeyMetricDevice, List<Entry>> gained = new LinkedHashMap<>();
        if (!touched.runs().isEmpty()) {
            readResults(c, touched, full, gained);
        }
        full.removeIf(d -> pairs.contains(d.pair()));
        gained.keySet().removeIf(d -> pairs.contains(d.pair()) || full.contains(d));
        Map<Touched.KeyMetricDevice, Group> current = currentRows(c, gained.keySet());
        for (Touched.KeyMetricDevice d : gained.keySet()) {
            // Without a row (or its sums) there is nothing to extend; and a row that two batches create at once must
            // come from the runs both see, which a recompute reads after the other's commit.
            if (!current.containsKey(d)) {
                full.add(d);
            }
        }
        gained.keySet().removeAll(full);
        recompute(c, pairs);
        recomputeDevices(c, full);
        extend(c, gained, current);
        full.forEach(d -> pairs.add(d.pair()));
        metricKeys.refresh(c, pairs);
    }

    /** Every (key, metric) pair that has results or published figures, in slices of 1000 pairs. */
    public void recomputeAll(Connection c) throws SQLException {
        List<Touched.KeyMetric> all = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT key_id, metric FROM proj_result WHERE key_id IS NOT NULL
                UNION SELECT key_id, metric FROM proj_published_claim WHERE key_id IS NOT NULL
                ORDER BY 1, 2""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                all.add(new Touched.KeyMetric(rs.getString(1), rs.getString(2)));
            }
        }
        for (int i = 0; i < all.size(); i += 1000) {
            recompute(c, new LinkedHashSet<>(all.subList(i, Math.min(all.size(), i + 1000))));
        }
        metricKeys.recomputeAll(c);
    }

    /**
     * The results of the touched runs: a result this batch inserted adds its run to its row if the run counts; any other
     * result of a touched run (changed, or its run changed) has its row recomputed. Read through {@code LATERAL ...
     * OFFSET 0}, which keeps the planner on one index lookup per run (joined plainly, this read grew with the history).
     */
    private static void readResults(
            Connection c,
            Touched touched,
            Set<Touched.KeyMetricDevice> full,
            Map<Touched.KeyMetricDevice, List<Entry>> gained)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT m.key_id, m.metric, m.device_id, m.run_id, r.benchmark, m.unit, m.direction, m.mean,
                       coalesce(m.n, 0), r.finished_at,
                       m.mean IS NOT NULL AND r.status = 'completed' AND r.valid AND NOT r.retracted
                           AND r.benchmark IS NOT NULL
                FROM unnest(?::uuid[]) AS t(run_id)
                CROSS JOIN LATERAL (SELECT run_id, key_id, metric, device_id, unit, direction, mean, n FROM proj_result
                                    WHERE run_id = t.run_id OFFSET 0) AS m
                JOIN proj_run r ON r.run_id = m.run_id
                WHERE m.key_id IS NOT NULL AND m.device_id IS NOT NULL""")) {
            ps.setArray(1, c.createArrayOf("uuid", touched.runs().toArray(new UUID[0])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    var d = new Touched.KeyMetricDevice(rs.getString(1), rs.getString(2), rs.getString(3));
                    UUID run = rs.getObject(4, UUID.class);
                    if (!touched.isNewResult(run, d.metric())) {
                        full.add(d);
                    } else if (rs.getBoolean(11)) {
                        gained.computeIfAbsent(d, x -> new ArrayList<>())
                                .add(new Entry(
                                        run,
                                        rs.getString(5),
                                        rs.getString(6),
                                        rs.getString(7),
                                        rs.getDouble(8),
                                        rs.getInt(9),
                                        rs.getTimestamp(10)));
                    }
                }
            }
        }
    }

    /**
     * The measured rows to extend, locked (in key order, so that two batches cannot wait on each other) until this
     * transaction ends: a batch that extends the same row waits and then reads what this one wrote. Rows without sums
     * are left out, and so recomputed.
     */
    private static Map<Touched.KeyMetricDevice, Group> currentRows(Connection c, Set<Touched.KeyMetricDevice> devices)
            throws SQLException {
        Map<Touched.KeyMetricDevice, Group> rows = new HashMap<>();
        if (devices.isEmpty()) {
            return rows;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT l.key_id, l.metric, l.device_id, l.benchmark, l.unit, l.direction, l.runs, l.mean_sum,
                       l.mean_sum_squares, l.mean_min, l.mean_max, l.n, l.last_run_at, l.first_run_id
                FROM %s
                JOIN proj_leaderboard_row l ON l.key_id = t.key_id AND l.metric = t.metric AND l.device_id = t.device_id
                                           AND l.source = 'measured'
                WHERE l.mean_sum IS NOT NULL AND l.first_run_id IS NOT NULL
                ORDER BY l.key_id, l.metric, l.device_id
                FOR UPDATE OF l""".formatted(DEVICES.unnest("t")))) {
            DEVICES.bind(ps, 1, List.copyOf(devices));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    RunMeans means = new RunMeans(
                            rs.getInt(7), rs.getBigDecimal(8), rs.getBigDecimal(9), rs.getDouble(10), rs.getDouble(11));
                    rows.put(
                            new Touched.KeyMetricDevice(rs.getString(1), rs.getString(2), rs.getString(3)),
                            new Group(
                                    rs.getString(4),
                                    rs.getString(5),
                                    rs.getString(6),
                                    means,
                                    rs.getInt(12),
                                    rs.getTimestamp(13),
                                    rs.getObject(14, UUID.class)));
                }
            }
        }
        return rows;
    }

    private void extend(
            Connection c, Map<Touched.KeyMetricDevice, List<Entry>> gained, Map<Touched.KeyMetricDevice, Group> current)
            throws SQLException {
        Rows<LeaderboardRow> rows = new Rows<>(ROW, UPDATE, LeaderboardRow::key);
        for (Map.Entry<Touched.KeyMetricDevice, List<Entry>> d : gained.entrySet()) {
            Group g = current.get(d.getKey());
            for (Entry e : d.getValue()) {
                g = g.plus(e);
            }
            rows.add(LeaderboardRow.of(d.getKey().pair(), d.getKey().deviceId(), MEASURED, g));
        }
        rows.execute(c);
    }

    /**
     * All pairs at once: one DELETE, one read of the measured and one of the published entries, one INSERT, so a batch
     * costs four round trips however many keys it touched. Reads go through {@code LATERAL ... OFFSET 0}: the fence
     * keeps the planner on index lookups per target (docs/PERFORMANCE.md).
     */
    private void recompute(Connection c, Set<Touched.KeyMetric> pairs) throws SQLException {
        if (!pairs.isEmpty()) {
            recompute(c, PAIRS, List.copyOf(pairs), false);
        }
    }

    /** The same for single devices' rows. */
    private void recomputeDevices(Connection c, Set<Touched.KeyMetricDevice> devices) throws SQLException {
        if (!devices.isEmpty()) {
            recompute(c, DEVICES, List.copyOf(devices), true);
        }
    }

    /** Rows of the (key, metric) pairs given, or {@code byDevice}, of the (key, metric, device) triples given. */
    private <T extends Record> void recompute(Connection c, Columns<T> columns, List<T> targets, boolean byDevice)
            throws SQLException {
        String from = columns.unnest("t");
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM proj_leaderboard_row l USING " + from
                + " WHERE l.key_id = t.key_id AND l.metric = t.metric"
                + (byDevice ? " AND l.device_id = t.device_id" : ""))) {
            columns.bind(ps, 1, targets);
            ps.executeUpdate();
        }
        Map<Touched.KeyMetric, Map<String, Group>> measured = read(
                c, MEASURED_GROUPS.formatted(from, byDevice ? "AND m.device_id = t.device_id" : ""), columns, targets);
        Map<Touched.KeyMetric, Map<String, Group>> published = read(
                c, PUBLISHED_GROUPS.formatted(from, byDevice ? "AND p.device_id = t.device_id" : ""), columns, targets);
        Rows<LeaderboardRow> rows = new Rows<>(ROW, INSERT, LeaderboardRow::key);
        addAll(rows, measured, MEASURED);
        addAll(rows, published, "published");
        rows.execute(c);
    }

    private static void addAll(
            Rows<LeaderboardRow> rows, Map<Touched.KeyMetric, Map<String, Group>> groups, String source) {
        for (var pair : groups.entrySet()) {
            for (var d : pair.getValue().entrySet()) {
                rows.add(LeaderboardRow.of(pair.getKey(), d.getKey(), source, d.getValue()));
            }
        }
    }

    /** The measured entries of the targets ({@code %s}: their FROM item, then a condition on the device or none). */
    private static final String MEASURED_GROUPS = """
            SELECT t.key_id, t.metric, e.device_id, (array_agg(e.benchmark ORDER BY e.run_id))[1],
                   (array_agg(e.unit ORDER BY e.run_id))[1], (array_agg(e.direction ORDER BY e.run_id))[1],
                   array_agg(e.mean), sum(coalesce(e.n, 0)), max(e.finished_at),
                   (array_agg(e.run_id ORDER BY e.run_id))[1]
            FROM %s
            CROSS JOIN LATERAL (
                SELECT m.device_id, r.run_id, r.benchmark, m.unit, m.direction, m.mean, m.n, r.finished_at
                FROM proj_result m JOIN proj_run r ON r.run_id = m.run_id
                WHERE m.key_id = t.key_id AND m.metric = t.metric %s
                  AND m.device_id IS NOT NULL AND m.mean IS NOT NULL
                  AND r.status = 'completed' AND r.valid AND NOT r.retracted AND r.benchmark IS NOT NULL
                OFFSET 0) AS e
            GROUP BY t.key_id, t.metric, e.device_id
            ORDER BY t.key_id, t.metric, e.device_id""";

    /** The published entries of the targets, in the same shape. */
    private static final String PUBLISHED_GROUPS = """
            SELECT p.key_id, p.metric, p.device_id, (array_agg(p.benchmark ORDER BY p.source, p.claim_id))[1],
                   (array_agg(p.unit ORDER BY p.source, p.claim_id))[1],
                   (array_agg(p.direction ORDER BY p.source, p.claim_id))[1],
                   array_agg(p.value), count(*), NULL::timestamptz, NULL::uuid
            FROM %s
            JOIN proj_published_claim p ON p.key_id = t.key_id AND p.metric = t.metric %s
            WHERE p.device_id IS NOT NULL AND p.value_kind = 'value' AND NOT p.is_ratio
              AND p.value IS NOT NULL AND p.benchmark IS NOT NULL
            GROUP BY p.key_id, p.metric, p.device_id
            ORDER BY p.key_id, p.metric, p.device_id""";

    /**
     * A plain insert, after the recompute deleted the rows: if another batch inserts the same row at the same time, one
     * of the two fails and is read again, rather than one silently replacing the other's runs.
     */
    private static final String INSERT = """
            INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n,
                                              mean, ci95_low, ci95_high, best, cv, last_run_at, mean_sum,
                                              mean_sum_squares, mean_min, mean_max, first_run_id)
            SELECT key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, ci95_low, ci95_high,
                   best, cv, last_run_at, mean_sum, mean_sum_squares, mean_min, mean_max, first_run_id
            FROM %s""".formatted(ROW.unnest("x"));

    /** The extended rows, which {@link #currentRows} locked. */
    private static final String UPDATE = """
            UPDATE proj_leaderboard_row l SET benchmark = x.benchmark, unit = x.unit, direction = x.direction,
                runs = x.runs, n = x.n, mean = x.mean, ci95_low = x.ci95_low, ci95_high = x.ci95_high, best = x.best,
                cv = x.cv, last_run_at = x.last_run_at, mean_sum = x.mean_sum, mean_sum_squares = x.mean_sum_squares,
                mean_min = x.mean_min, mean_max = x.mean_max, first_run_id = x.first_run_id
            FROM %s
            WHERE l.key_id = x.key_id AND l.metric = x.metric AND l.device_id = x.device_id
              AND l.source = x.source""".formatted(ROW.unnest("x"));

    private static <T extends Record> Map<Touched.KeyMetric, Map<String, Group>> read(
            Connection c, String sql, Columns<T> columns, List<T> targets) throws SQLException {
        Map<Touched.KeyMetric, Map<String, Group>> byPair = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            columns.bind(ps, 1, targets);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<Double> values = new ArrayList<>();
                    for (Number v : (Number[]) rs.getArray(7).getArray()) {
                        values.add(v.doubleValue());
                    }
                    byPair.computeIfAbsent(
                                    new Touched.KeyMetric(rs.getString(1), rs.getString(2)), p -> new LinkedHashMap<>())
                            .put(
                                    rs.getString(3),
                                    new Group(
                                            rs.getString(4),
                                            rs.getString(5),
                                            rs.getString(6),
                                            RunMeans.of(values),
                                            (int) Math.min(Integer.MAX_VALUE, rs.getLong(8)),
                                            rs.getTimestamp(9),
                                            rs.getObject(10, UUID.class)));
                }
            }
        }
        return byPair;
    }

    /** PostgreSQL orders uuids by their bytes, as unsigned numbers; {@link UUID#compareTo} compares signed halves. */
    static int compareAsPostgres(UUID a, UUID b) {
        int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return high != 0 ? high : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }
}
