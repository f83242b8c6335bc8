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
        for (Touched.KeyMetric pair : pairs) {
            recompute(c, pair.keyId(), pair.metric());
        }
    }

    private void recompute(Connection c, String keyId, String metric) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM proj_leaderboard_row WHERE key_id = ? AND metric = ?")) {
            ps.setString(1, keyId);
            ps.setString(2, metric);
            ps.executeUpdate();
        }
        Map<String, List<Entry>> measured = read(c, """
                SELECT m.device_id, r.benchmark, m.unit, m.direction, m.mean, coalesce(m.n, 0), r.finished_at
                FROM proj_result m JOIN proj_run r ON r.run_id = m.run_id
                WHERE m.key_id = ? AND m.metric = ? AND m.device_id IS NOT NULL AND m.mean IS NOT NULL
                  AND r.status = 'completed' AND r.valid AND NOT r.retracted AND r.benchmark IS NOT NULL
                ORDER BY m.device_id, r.run_id""", keyId, metric);
        Map<String, List<Entry>> published = read(c, """
                SELECT device_id, benchmark, unit, direction, value, 1, NULL::timestamptz
                FROM proj_published_claim
                WHERE key_id = ? AND metric = ? AND device_id IS NOT NULL AND value_kind = 'value' AND NOT is_ratio
                  AND value IS NOT NULL AND benchmark IS NOT NULL
                ORDER BY device_id, source, claim_id""", keyId, metric);
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n,
                                                  mean, ci95_low, ci95_high, best, cv, last_run_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            add(ps, keyId, metric, "measured", measured);
            add(ps, keyId, metric, "published", published);
            ps.executeBatch();
        }
    }

    private static Map<String, List<Entry>> read(Connection c, String sql, String keyId, String metric)
            throws SQLException {
        Map<String, List<Entry>> byDevice = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, keyId);
            ps.setString(2, metric);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byDevice.computeIfAbsent(rs.getString(1), d -> new ArrayList<>()).add(new Entry(
                            rs.getString(2), rs.getString(3), rs.getString(4), rs.getDouble(5), rs.getInt(6),
                            rs.getTimestamp(7)));
                }
            }
        }
        return byDevice;
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
