package dev.podium.ingest.projection;

import dev.podium.ingest.history.ChangePointUpdater;
import dev.podium.ingest.history.ChangePoints;
import dev.podium.ingest.store.EventStore;
import dev.podium.ingest.store.StoredEvent;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Empties every read model and replays the event store in position order, in chunks, in one transaction under the
 * exclusive projection lock: batches wait meanwhile, and a failed rebuild leaves the old rows in place.
 */
@ApplicationScoped
public class Rebuilder {

    private static final Logger LOG = Logger.getLogger(Rebuilder.class);
    private static final int CHUNK = 2000;

    private final AgroalDataSource dataSource;
    private final EventStore store;
    private final Projections projections;

    public Rebuilder(AgroalDataSource dataSource, EventStore store, Projections projections) {
        this.dataSource = dataSource;
        this.store = store;
        this.projections = projections;
    }

    /** The number of events replayed. */
    public long rebuild() throws SQLException {
        long started = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT pg_advisory_xact_lock(" + Projections.LOCK + ")");
                    s.execute("SELECT pg_advisory_xact_lock(" + ChangePointUpdater.LOCK + ")");
                    s.execute("TRUNCATE " + String.join(", ", Projections.TABLES));
                }
                long after = 0;
                long replayed = 0;
                while (true) {
                    List<StoredEvent> chunk = store.readAfter(c, after, CHUNK);
                    if (chunk.isEmpty()) {
                        break;
                    }
                    projections.applyModels(c, chunk, new Touched());
                    after = chunk.get(chunk.size() - 1).position();
                    replayed += chunk.size();
                }
                // Aggregates depend on the final read models only: computed once, not once per chunk.
                projections.recomputeAll(c);
                ChangePoints.recomputeAll(c);
                c.commit();
                LOG.infof("rebuilt the projections from %d events in %d ms", replayed,
                        (System.nanoTime() - started) / 1_000_000);
                return replayed;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }
}
