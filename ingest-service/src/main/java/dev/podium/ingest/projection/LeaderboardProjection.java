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

    private record Entry(String benchmark, String unit, String direction, double value, int n, Timestamp at) {
    }

    public void recompute(Connection c, Touched touched) throws SQLException {
        Set<Touched.KeyMetric> pairs = new LinkedHashSet<>(touched.keyMetrics());
        if (!touched.runs().isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT DISTINCT key_id, metric FROM proj_result WHERE run_id = ANY(?) AND key_id IS NOT NULL")) {
                ps.setArray(1, c.createArrayOf("uuid", touched.runs().toArray(new UUID[0])));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        pairs.add(new Touched.KeyMetric(rs.getString(1), rs.getString(2)));
                    }
                }
            }
        }
        recompute(c, pairs);
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
     * All pairs at once: one DELETE, one read of the measured and one of the published entries, one INSERT batch, so a
     * batch costs four round trips however many keys it touched.
     */
    private void recompute(Connection c, Set<Touched.KeyMetric> pairs) throws SQLException {
        if (pairs.isEmpty()) {
            return;
        }
        String[] keyIds = pairs.stream().map(Touched.KeyMetric::keyId).toArray(String[]::new);
        String[] metrics = pairs.stream().map(Touched.KeyMetric::metric).toArray(String[]::new);
        try (PreparedStatement ps = c.prepareStatement("""
                DELETE FROM proj_leaderboard_row l USING unnest(?::text[], ?::text[]) AS t(key_id, metric)
                WHERE l.key_id = t.key_id AND l.metric = t.metric""")) {
            ps.setArray(1, c.createArrayOf("text", keyIds));
            ps.setArray(2, c.createArrayOf("text", metrics));
            ps.executeUpdate();
        }
        Map<Touched.KeyMetric, Map<String, List<Entry>>> measured = read(c, """
                SELECT m.key_id, m.metric, m.device_id, r.benchmark, m.unit, m.direction, m.mean, coalesce(m.n, 0),
                       r.finished_at
                FROM unnest(?::text[], ?::text[]) AS t(key_id, metric)
                JOIN proj_result m ON m.key_id = t.key_id AND m.metric = t.metric
                JOIN proj_run r ON r.run_id = m.run_id
                WHERE m.device_id IS NOT NULL AND m.mean IS NOT NULL
                  AND r.status = 'completed' AND r.valid AND NOT r.retracted AND r.benchmark IS NOT NULL
                ORDER BY m.key_id, m.metric, m.device_id, r.run_id""", keyIds, metrics);
        Map<Touched.KeyMetric, Map<String, List<Entry>>> published = read(c, """
                SELECT p.key_id, p.metric, p.device_id, p.benchmark, p.unit, p.direction, p.value, 1, NULL::timestamptz
                FROM unnest(?::text[], ?::text[]) AS t(key_id, metric)
                JOIN proj_published_claim p ON p.key_id = t.key_id AND p.metric = t.metric
                WHERE p.device_id IS NOT NULL AND p.value_kind = 'value' AND NOT p.is_ratio
                  AND p.value IS NOT NULL AND p.benchmark IS NOT NULL
                ORDER BY p.key_id, p.metric, p.device_id, p.source, p.claim_id""", keyIds, metrics);
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n,
                                                  mean, ci95_low, ci95_high, best, cv, last_run_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (Touched.KeyMetric pair : pairs) {
                add(ps, pair.keyId(), pair.metric(), "measured", measured.getOrDefault(pair, Map.of()));
                add(ps, pair.keyId(), pair.metric(), "published", published.getOrDefault(pair, Map.of()));
            }
            ps.executeBatch();
        }
    }

    private static Map<Touched.KeyMetric, Map<String, List<Entry>>> read(Connection c, String sql, String[] keyIds,
            String[] metrics) throws SQLException {
        Map<Touched.KeyMetric, Map<String, List<Entry>>> byPair = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setArray(1, c.createArrayOf("text", keyIds));
            ps.setArray(2, c.createArrayOf("text", metrics));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byPair.computeIfAbsent(new Touched.KeyMetric(rs.getString(1), rs.getString(2)),
                                    p -> new LinkedHashMap<>())
                            .computeIfAbsent(rs.getString(3), d -> new ArrayList<>())
                            .add(new Entry(rs.getString(4), rs.getString(5), rs.getString(6), rs.getDouble(7),
                                    rs.getInt(8), rs.getTimestamp(9)));
                }
            }
        }
        return byPair;
    }

    private static void add(PreparedStatement ps, String keyId, String metric, String source,
            Map<String, List<Entry>> byDevice) throws SQLException {
        for (Map.Entry<String, List<Entry>> d : byDevice.entrySet()) {
            List<Entry> entries = d.getValue();
            Entry first = entries.get(0);
            Statistics s = Statistics.of(entries.stream().map(Entry::value).toList());
            boolean higher = Direction.HIGHER_IS_BETTER.name().equals(first.direction());
            Timestamp last = entries.stream().map(Entry::at).filter(java.util.Objects::nonNull)
                    .max(Timestamp::compareTo).orElse(null);
            int i = 1;
            ps.setString(i++, keyId);
            ps.setString(i++, metric);
            ps.setString(i++, d.getKey());
            ps.setString(i++, source);
            ps.setString(i++, first.benchmark());
            ps.setString(i++, first.unit());
            ps.setString(i++, first.direction());
            ps.setInt(i++, entries.size());
            ps.setInt(i++, entries.stream().mapToInt(Entry::n).sum());
            ps.setDouble(i++, s.mean());
            ps.setDouble(i++, s.ci95Low());
            ps.setDouble(i++, s.ci95High());
            ps.setDouble(i++, higher ? s.max() : s.min());
            ps.setDouble(i++, s.cv());
            ps.setTimestamp(i, last);
            ps.addBatch();
        }
    }
}
