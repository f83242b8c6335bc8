package dev.podium.ingest.projection;

import dev.podium.events.model.Direction;
import dev.podium.events.model.Statistics;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code proj_leaderboard_row}, recomputed (never incremented) for the (comparison key, metric) pairs a batch touched:
 * measured rows from completed, valid, not retracted, not superseded runs (one value per run, its mean); published rows
 * from imported figures with an exact value. Order-independent, so replay gives the same rows.
 */
@ApplicationScoped
public class LeaderboardProjection {

    /**
     * The entries of one device under one (key, metric), grouped by the database: the first entry's benchmark, unit and
     * direction, every value (statistics are computed here, as for a run's own values), the summed n, the latest time.
     */
    private record Group(String benchmark, String unit, String direction, List<Double> values, int n, Timestamp last) {
    }

    /**
     * Pairs named by published figures are recomputed for every device; runs touch only their own device's rows (and
     * the rows their results left, see {@link Touched#device}), so only those are recomputed.
     */
    public void recompute(Connection c, Touched touched) throws SQLException {
        Set<Touched.KeyMetric> pairs = new LinkedHashSet<>(touched.keyMetrics());
        Set<Touched.KeyMetricDevice> devices = new LinkedHashSet<>(touched.devices());
        if (!touched.runs().isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT DISTINCT m.key_id, m.metric, m.device_id
                    FROM unnest(?::uuid[]) AS t(run_id)
                    CROSS JOIN LATERAL (SELECT key_id, metric, device_id FROM proj_result
                                        WHERE run_id = t.run_id OFFSET 0) AS m
                    WHERE m.key_id IS NOT NULL AND m.device_id IS NOT NULL""")) {
                ps.setArray(1, c.createArrayOf("uuid", touched.runs().toArray(new UUID[0])));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        devices.add(new Touched.KeyMetricDevice(rs.getString(1), rs.getString(2), rs.getString(3)));
                    }
                }
            }
        }
        devices.removeIf(d -> pairs.contains(d.pair()));
        recompute(c, pairs);
        recomputeDevices(c, devices);
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
    }

    /**
     * All pairs at once: one DELETE, one read of the measured and one of the published entries, one INSERT, so a batch
     * costs four round trips however many keys it touched. Reads go through {@code LATERAL ... OFFSET 0} (and the
     * DISTINCT of touched runs too): the fence keeps the planner on index lookups per target. Joined plainly, the
     * DISTINCT took 14 ms per batch of 500 events at 34,000 runs, growing with the history (docs/PERFORMANCE.md).
     */
    private void recompute(Connection c, Set<Touched.KeyMetric> pairs) throws SQLException {
        if (pairs.isEmpty()) {
            return;
        }
        recompute(c, pairs.stream().map(Touched.KeyMetric::keyId).toArray(String[]::new),
                pairs.stream().map(Touched.KeyMetric::metric).toArray(String[]::new), null);
    }

    /** The same for single devices' rows. */
    private void recomputeDevices(Connection c, Set<Touched.KeyMetricDevice> devices) throws SQLException {
        if (devices.isEmpty()) {
            return;
        }
        recompute(c, devices.stream().map(Touched.KeyMetricDevice::keyId).toArray(String[]::new),
                devices.stream().map(Touched.KeyMetricDevice::metric).toArray(String[]::new),
                devices.stream().map(Touched.KeyMetricDevice::deviceId).toArray(String[]::new));
    }

    /** Rows of the (key, metric) pairs given, or with {@code deviceIds}, of the (key, metric, device) triples given. */
    private void recompute(Connection c, String[] keyIds, String[] metrics, String[] deviceIds) throws SQLException {
        boolean byDevice = deviceIds != null;
        String targets = byDevice ? "unnest(?::text[], ?::text[], ?::text[]) AS t(key_id, metric, device_id)"
                : "unnest(?::text[], ?::text[]) AS t(key_id, metric)";
        String[][] params = byDevice ? new String[][] {keyIds, metrics, deviceIds} : new String[][] {keyIds, metrics};
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM proj_leaderboard_row l USING " + targets
                + " WHERE l.key_id = t.key_id AND l.metric = t.metric"
                + (byDevice ? " AND l.device_id = t.device_id" : ""))) {
            bind(c, ps, params);
            ps.executeUpdate();
        }
        Map<Touched.KeyMetric, Map<String, Group>> measured = read(c, """
                SELECT t.key_id, t.metric, e.device_id, (array_agg(e.benchmark ORDER BY e.run_id))[1],
                       (array_agg(e.unit ORDER BY e.run_id))[1], (array_agg(e.direction ORDER BY e.run_id))[1],
                       array_agg(e.mean), sum(coalesce(e.n, 0)), max(e.finished_at)
                FROM %s
                CROSS JOIN LATERAL (
                    SELECT m.device_id, r.run_id, r.benchmark, m.unit, m.direction, m.mean, m.n, r.finished_at
                    FROM proj_result m JOIN proj_run r ON r.run_id = m.run_id
                    WHERE m.key_id = t.key_id AND m.metric = t.metric %s
                      AND m.device_id IS NOT NULL AND m.mean IS NOT NULL
                      AND r.status = 'completed' AND r.valid AND NOT r.retracted AND r.benchmark IS NOT NULL
                    OFFSET 0) AS e
                GROUP BY t.key_id, t.metric, e.device_id
                ORDER BY t.key_id, t.metric, e.device_id""".formatted(targets,
                byDevice ? "AND m.device_id = t.device_id" : ""), params);
        Map<Touched.KeyMetric, Map<String, Group>> published = read(c, """
                SELECT p.key_id, p.metric, p.device_id, (array_agg(p.benchmark ORDER BY p.source, p.claim_id))[1],
                       (array_agg(p.unit ORDER BY p.source, p.claim_id))[1],
                       (array_agg(p.direction ORDER BY p.source, p.claim_id))[1],
                       array_agg(p.value), count(*), NULL::timestamptz
                FROM %s
                JOIN proj_published_claim p ON p.key_id = t.key_id AND p.metric = t.metric %s
                WHERE p.device_id IS NOT NULL AND p.value_kind = 'value' AND NOT p.is_ratio
                  AND p.value IS NOT NULL AND p.benchmark IS NOT NULL
                GROUP BY p.key_id, p.metric, p.device_id
                ORDER BY p.key_id, p.metric, p.device_id""".formatted(targets,
                byDevice ? "AND p.device_id = t.device_id" : ""), params);
        Rows rows = new Rows("""
                INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n,
                                                  mean, ci95_low, ci95_high, best, cv, last_run_at)
                SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[],
                                     ?::int[], ?::float8[], ?::float8[], ?::float8[], ?::float8[], ?::float8[],
                                     ?::timestamptz[])""", "text", "text", "text", "text", "text", "text", "text", "int",
                "int", "float8", "float8", "float8", "float8", "float8", "timestamptz");
        for (var pair : measured.entrySet()) {
            add(rows, pair.getKey().keyId(), pair.getKey().metric(), "measured", pair.getValue());
        }
        for (var pair : published.entrySet()) {
            add(rows, pair.getKey().keyId(), pair.getKey().metric(), "published", pair.getValue());
        }
        rows.execute(c);
    }

    private static void bind(Connection c, PreparedStatement ps, String[][] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            ps.setArray(i + 1, c.createArrayOf("text", params[i]));
        }
    }

    private static Map<Touched.KeyMetric, Map<String, Group>> read(Connection c, String sql, String[][] params)
            throws SQLException {
        Map<Touched.KeyMetric, Map<String, Group>> byPair = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(c, ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<Double> values = new ArrayList<>();
                    for (Object v : (Object[]) rs.getArray(7).getArray()) {
                        values.add(((Number) v).doubleValue());
                    }
                    byPair.computeIfAbsent(new Touched.KeyMetric(rs.getString(1), rs.getString(2)),
                                    p -> new LinkedHashMap<>())
                            .put(rs.getString(3), new Group(rs.getString(4), rs.getString(5), rs.getString(6), values,
                                    rs.getInt(8), rs.getTimestamp(9)));
                }
            }
        }
        return byPair;
    }

    private static void add(Rows rows, String keyId, String metric, String source, Map<String, Group> byDevice) {
        for (Map.Entry<String, Group> d : byDevice.entrySet()) {
            Group g = d.getValue();
            Statistics s = Statistics.of(g.values());
            boolean higher = Direction.HIGHER_IS_BETTER.name().equals(g.direction());
            rows.add(List.of(keyId, metric, d.getKey(), source), keyId, metric, d.getKey(), source, g.benchmark(), g.unit(),
                    g.direction(), g.values().size(), g.n(), s.mean(), s.ci95Low(), s.ci95High(),
                    higher ? s.max() : s.min(), s.cv(), g.last() == null ? null : g.last().toInstant());
        }
    }
}
