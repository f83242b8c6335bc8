package dev.podium.ingest.projection;

import dev.podium.ingest.history.ChangePointUpdater;
import dev.podium.ingest.history.ChangePoints;
import dev.podium.ingest.store.EventStore;
import dev.podium.ingest.store.StoredEvent;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Rebuilds the read models ({@link Projections#TABLES}) beside the live ones while pages and batches go on using those,
 * then swaps them in:
 * <ol>
 * <li>{@link ShadowTables#create}: an empty copy of every read-model table in schema {@value ShadowTables#SHADOW};</li>
 * <li>a horizon: the highest position at an instant when no batch is in flight (taken under the exclusive projection
 *     lock, held for that one read), so that every event up to it is committed and none will appear below it;</li>
 * <li>the event store replayed up to the horizon into the shadow tables (their schema first on the search path), and the
 *     aggregates and change points computed from them;</li>
 * <li>catch-up: the events appended meanwhile, up to a new horizon, applied as live batches apply them, until few are
 *     left;</li>
 * <li>one short transaction under the change-point updater's lock and the exclusive projection lock: the last events
 *     applied, then {@link ShadowTables#swap}, which also repoints every view over the tables.</li>
 * </ol>
 * A rebuild that fails before the swap leaves the live tables as they were.
 */
@ApplicationScoped
public class Rebuilder {

    private static final Logger LOG = Logger.getLogger(Rebuilder.class);
    private static final int CHUNK = 2000;
    /** Catch-up rounds end when fewer events than this arrived during the last one. */
    private static final int CLOSE_ENOUGH = 1000;

    private static final int MAX_CATCH_UP_ROUNDS = 10;

    private final AgroalDataSource dataSource;
    private final EventStore store;
    private final Projections projections;

    public Rebuilder(AgroalDataSource dataSource, EventStore store, Projections projections) {
        this.dataSource = dataSource;
        this.store = store;
        this.projections = projections;
    }

    /** The number of events replayed into the new read models. */
    public synchronized long rebuild() throws SQLException {
        long started = System.nanoTime();
        transaction(c -> ShadowTables.create(c, Projections.TABLES));
        long horizon = horizon();
        long replayed = inTransaction(c -> {
            ShadowTables.useShadow(c);
            long n = replay(c, 0, horizon, false);
            projections.recomputeAll(c);
            ChangePoints.recomputeAll(c);
            return n;
        });
        long reached = horizon;
        for (int round = 0; round < MAX_CATCH_UP_ROUNDS; round++) {
            long next = horizon();
            long from = reached;
            replayed += inTransaction(c -> {
                ShadowTables.useShadow(c);
                return replay(c, from, next, true);
            });
            boolean close = next - reached < CLOSE_ENOUGH;
            reached = next;
            if (close) {
                break;
            }
        }
        transaction(c -> ShadowTables.analyze(c, Projections.TABLES));
        long from = reached;
        long swapStarted = System.nanoTime();
        replayed += inTransaction(c -> {
            ShadowTables.useShadow(c);
            lockForSwap(c);
            long n = replay(c, from, Long.MAX_VALUE, true);
            ShadowTables.swap(c, Projections.TABLES);
            ChangePointUpdater.recountState(c, 0);
            Projections.announceAllPages(c);
            return n;
        });
        long swapMs = (System.nanoTime() - swapStarted) / 1_000_000;
        transaction(ShadowTables::dropRetired);
        LOG.infof(
                "rebuilt the projections from %d events in %d ms (the swap held batches for %d ms)",
                replayed, (System.nanoTime() - started) / 1_000_000, swapMs);
        return replayed;
    }

    /**
     * Applies the events in (after, upTo] in position order: with {@code live}, as batches do (aggregates and change
     * points for what they touched); without, the read models only, for a replay whose aggregates are computed once at
     * its end.
     */
    private long replay(Connection c, long after, long upTo, boolean live) throws SQLException {
        long replayed = 0;
        long position = after;
        while (position < upTo) {
            List<StoredEvent> chunk = store.readAfter(c, position, CHUNK);
            List<StoredEvent> inRange =
                    chunk.stream().filter(e -> e.position() <= upTo).toList();
            if (inRange.isEmpty()) {
                break;
            }
            if (live) {
                Touched touched = projections.apply(c, inRange);
                ChangePoints.update(c, ChangePoints.historiesOf(c, touched));
            } else {
                projections.applyModels(c, inRange, new Touched());
            }
            position = inRange.get(inRange.size() - 1).position();
            replayed += inRange.size();
            if (inRange.size() < chunk.size()) {
                break;
            }
        }
        return replayed;
    }

    /** The highest position, read while no batch is in flight. */
    private long horizon() throws SQLException {
        return inTransaction(c -> {
            lockExclusive(c);
            try (var s = c.createStatement();
                    var rs = s.executeQuery("SELECT coalesce(max(position), 0) FROM event_store")) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /** The projection lock, exclusively: batches in flight finish first, new ones wait. */
    private static void lockExclusive(Connection c) throws SQLException {
        try (var s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(" + Projections.LOCK + ")");
        }
    }

    /**
     * For the swap: the change-point updater's lock first (a round in progress ends; batches go on meanwhile), then the
     * projection lock. Nothing takes them in the other order.
     */
    private static void lockForSwap(Connection c) throws SQLException {
        try (var s = c.createStatement()) {
            s.execute("SELECT pg_advisory_xact_lock(" + ChangePointUpdater.LOCK + ")");
        }
        lockExclusive(c);
    }

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    @FunctionalInterface
    private interface Step {
        void run(Connection c) throws SQLException;
    }

    private void transaction(Step step) throws SQLException {
        inTransaction(c -> {
            step.run(c);
            return null;
        });
    }

    private <T> T inTransaction(Work<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }
}
