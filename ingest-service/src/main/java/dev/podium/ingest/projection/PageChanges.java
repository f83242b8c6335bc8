package dev.podium.ingest.projection;

import dev.podium.events.store.PageChannel;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;

/**
 * Tells query-service which benchmarks' pages a batch changed, on {@link PageChannel}, in the batch's own transaction:
 * the benchmarks of the runs it finished, retracted or sampled after their end and of the comparison keys whose rows
 * it rewrote, or {@link PageChannel#ALL} when it brought a benchmark no page listed yet (every page lists them). A run
 * still running is on no leaderboard or comparison: its start and progress change none of their pages.
 */
final class PageChanges {

    private PageChanges() {}

    static void announce(Connection c, Touched touched) throws SQLException {
        if (touched.hasNewBenchmark()) {
            notifyAll(c, Set.of(PageChannel.ALL));
            return;
        }
        Set<UUID> runs = new LinkedHashSet<>(touched.runs());
        runs.addAll(touched.sampledRuns());
        Set<String> keys = new LinkedHashSet<>(touched.pageKeys());
        touched.keyMetrics().forEach(k -> keys.add(k.keyId()));
        touched.devices().forEach(d -> keys.add(d.keyId()));
        if (!runs.isEmpty() || !keys.isEmpty()) {
            notifyAll(c, benchmarks(c, runs, keys));
        }
    }

    /** Every page: the read models were swapped for rebuilt ones. */
    static void announceAll(Connection c) throws SQLException {
        notifyAll(c, Set.of(PageChannel.ALL));
    }

    private static Set<String> benchmarks(Connection c, Set<UUID> runs, Set<String> keys) throws SQLException {
        Set<String> out = new LinkedHashSet<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT benchmark FROM proj_run
                WHERE run_id = ANY(?::uuid[]) AND benchmark IS NOT NULL AND status <> 'running'
                UNION
                SELECT benchmark FROM proj_comparison_key WHERE key_id = ANY(?::text[])""")) {
            ps.setArray(1, c.createArrayOf("uuid", runs.toArray()));
            ps.setArray(2, c.createArrayOf("text", keys.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /** One notification per benchmark; PostgreSQL folds a transaction's identical ones into one. */
    private static void notifyAll(Connection c, Set<String> benchmarks) throws SQLException {
        if (benchmarks.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, b) FROM unnest(?::text[]) AS b")) {
            ps.setString(1, PageChannel.NAME);
            ps.setArray(2, c.createArrayOf("text", benchmarks.toArray()));
            ps.executeQuery().close();
        }
    }
}
