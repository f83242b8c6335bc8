package dev.podium.ingest.projection;

import dev.podium.events.run.RunEvent;
import dev.podium.events.store.PageChannel;
import dev.podium.ingest.store.StoredEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Tells query-service which pages a transaction changed, on {@link PageChannel}, in that transaction. A batch names the
 * page of every run it has an event of or retracted, and the benchmarks of the runs it finished, retracted or sampled
 * after their end and of the comparison keys whose rows it rewrote, or {@link PageChannel#ALL} when it brought a
 * benchmark no page listed yet (every page lists them) or hid or showed an entry. A run still running is on no leaderboard or comparison: its
 * start and progress change only its own page. A round of the change-point updater names the steps and the benchmarks
 * of the histories it rewrote.
 */
public final class PageChanges {

    private PageChanges() {}

    static void announce(Connection c, Touched touched, List<StoredEvent> events) throws SQLException {
        if (touched.changesEveryPage()) {
            notifyAll(c, Set.of(PageChannel.ALL));
            return;
        }
        Set<UUID> runs = new LinkedHashSet<>(touched.runs());
        runs.addAll(touched.sampledRuns());
        Set<String> keys = new LinkedHashSet<>(touched.pageKeys());
        touched.keyMetrics().forEach(k -> keys.add(k.keyId()));
        touched.devices().forEach(d -> keys.add(d.keyId()));
        Set<String> changed = new LinkedHashSet<>();
        if (!runs.isEmpty() || !keys.isEmpty()) {
            changed.addAll(benchmarks(c, runs, keys));
        }
        runPages(events, runs).forEach(run -> changed.add(PageChannel.run(run)));
        notifyAll(c, changed);
    }

    /** The steps and the histories of {@code keyIds}: what a round of the change-point updater rewrote. */
    public static void announceSteps(Connection c, Collection<String> keyIds) throws SQLException {
        Set<String> changed = new LinkedHashSet<>();
        changed.add(PageChannel.STEPS);
        changed.addAll(benchmarks(c, Set.of(), new LinkedHashSet<>(keyIds)));
        notifyAll(c, changed);
    }

    /** The runs whose pages a batch changed: those it has an event of, and those it touched otherwise. */
    private static Set<UUID> runPages(List<StoredEvent> events, Set<UUID> touched) {
        Set<UUID> out = new LinkedHashSet<>(touched);
        for (StoredEvent e : events) {
            if (e.envelope().payload() instanceof RunEvent r) {
                out.add(r.runId());
            }
        }
        return out;
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
