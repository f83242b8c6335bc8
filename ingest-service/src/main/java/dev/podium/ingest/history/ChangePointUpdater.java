package dev.podium.ingest.history;

import dev.podium.ingest.projection.PageChanges;
import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Folds the histories that batches touched ({@code history_touched}) into {@code proj_change_point} and
 * {@code proj_history}, on its own thread, in transactions of its own: step detection never runs inside, or slows, a
 * batch. One round takes up to {@value #ROUND} touches, recomputes their histories, deletes the touches, and records the
 * highest event position folded in ({@code history_state}), all in one transaction under {@link #LOCK}, so that the
 * updaters of several ingest instances take turns and a later round always reads what an earlier one saw.
 */
@ApplicationScoped
public class ChangePointUpdater {

    /** The advisory lock that serialises rounds across instances, and that a rebuild's swap takes. */
    public static final long LOCK = 0x706f6469756d20L;

    static final int ROUND = 5000;
    /**
     * The position of the touches migrations wrote for what existed before them (V20 the runs, V89 the histories): their
     * steps are stored but not told as new regressions, which would send every old regression to a webhook at the first
     * start.
     */
    static final long BACKFILL = 0;

    private static final Logger LOG = Logger.getLogger(ChangePointUpdater.class);

    private final AgroalDataSource dataSource;
    private final List<NewRegressions> listeners;

    /** Told, inside the round's transaction, of regressions that had no row before, found after a batch. */
    public interface NewRegressions {
        void added(Connection c, List<FoundStep> regressions) throws SQLException;
    }

    public ChangePointUpdater(AgroalDataSource dataSource, Instance<NewRegressions> listeners) {
        this.dataSource = dataSource;
        this.listeners = listeners.stream().toList();
    }

    /** Skipped while a round is still running: rounds are serialised by the advisory lock anyway. */
    @Scheduled(
            identity = "change-points",
            every = "${podium.history.interval}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void catchUp() {
        try {
            while (round() == ROUND) {
                // a full round: more touches are waiting
            }
        } catch (SQLException | RuntimeException ex) {
            LOG.warn("updating change points failed; the touches stay and are folded in at the next look", ex);
        }
    }

    /** One round; the number of touches folded in. */
    public int round() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                int folded = round(c);
                c.commit();
                return folded;
            } catch (SQLException | RuntimeException ex) {
                c.rollback();
                throw ex;
            }
        }
    }

    private int round(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
        }
        Set<UUID> runs = new LinkedHashSet<>();
        Set<UUID> backfilledRuns = new LinkedHashSet<>();
        Set<HistoryId> histories = new LinkedHashSet<>();
        Set<HistoryId> backfilledHistories = new LinkedHashSet<>();
        long position = -1;
        int folded = 0;
        try (PreparedStatement ps = c.prepareStatement("""
                DELETE FROM history_touched WHERE id IN (SELECT id FROM history_touched ORDER BY id LIMIT ?)
                RETURNING run_id, key_id, metric, device_id, position""")) {
            ps.setInt(1, ROUND);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    folded++;
                    UUID run = rs.getObject(1, UUID.class);
                    if (run != null) {
                        (rs.getLong(5) == BACKFILL ? backfilledRuns : runs).add(run);
                    } else if (rs.getString(2) != null && rs.getString(3) != null && rs.getString(4) != null) {
                        HistoryId h = new HistoryId(rs.getString(2), rs.getString(3), rs.getString(4));
                        (rs.getLong(5) == BACKFILL ? backfilledHistories : histories).add(h);
                    }
                    position = Math.max(position, rs.getLong(5));
                }
            }
        }
        if (folded == 0) {
            return 0;
        }
        histories.addAll(ChangePoints.historiesOf(c, runs));
        Set<HistoryId> live = Set.copyOf(histories);
        histories.addAll(backfilledHistories);
        histories.addAll(ChangePoints.historiesOf(c, backfilledRuns));
        ChangePoints.Update update = ChangePoints.update(c, histories);
        if (!histories.isEmpty()) {
            PageChanges.announceSteps(
                    c, histories.stream().map(HistoryId::keyId).collect(Collectors.toSet()));
        }
        List<FoundStep> regressions = update.newSteps().stream()
                .filter(r -> r.step().regression() && live.contains(r.step().history()))
                .toList();
        if (!regressions.isEmpty()) {
            for (NewRegressions l : listeners) {
                l.added(c, regressions);
            }
        }
        recordState(c, position, update.change());
        return folded;
    }

    /**
     * The position folded in so far, and the totals the regressions page shows, moved by what the round changed, so
     * that a round (once or twice a second under load) does not read all of {@code proj_history} to count them.
     */
    static void recordState(Connection c, long position, ChangePoints.Totals change) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE history_state SET position = greatest(position, ?), updated_at = now(), method = ?,
                    histories = histories + ?, points = points + ?
                WHERE id = 1""")) {
            ps.setLong(1, Math.max(position, 0));
            ps.setString(2, ChangePoints.method());
            ps.setLong(3, change.histories());
            ps.setLong(4, change.points());
            if (ps.executeUpdate() == 1) {
                return;
            }
        }
        recountState(c, position);
    }

    /** Counts the totals afresh: at the first round, and when a rebuild swaps the histories for rebuilt ones. */
    public static void recountState(Connection c, long position) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO history_state (id, position, updated_at, method, histories, points)
                SELECT 1, ?, now(), ?, count(*), coalesce(sum(points), 0) FROM proj_history
                ON CONFLICT (id) DO UPDATE SET position = greatest(history_state.position, excluded.position),
                    updated_at = excluded.updated_at, method = excluded.method, histories = excluded.histories,
                    points = excluded.points""")) {
            ps.setLong(1, Math.max(position, 0));
            ps.setString(2, ChangePoints.method());
            ps.executeUpdate();
        }
    }
}
