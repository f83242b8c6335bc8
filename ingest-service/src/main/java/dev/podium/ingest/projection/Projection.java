package dev.podium.ingest.projection;

import dev.podium.ingest.store.StoredEvent;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * One read model. {@link #apply} is idempotent and called in position order; events it does not read are ignored. What
 * it changes that feeds an aggregate is noted in {@link Touched}, which is recomputed once at the end of the batch.
 */
public interface Projection {

    void apply(StoredEvent event, Connection c, Touched touched) throws SQLException;

    /**
     * Writes what {@link #apply} deferred so far, in order. Called before any event whose projection depends on the
     * order of writes to runs and results ({@link Projections#ordersRuns}), and after the batch's last event.
     */
    default void drain(Connection c, Touched touched) throws SQLException {}

    /** Writes what {@link #apply} buffered for the batch; called once after the batch's last event. */
    default void flush(Connection c, Touched touched) throws SQLException {}
}
