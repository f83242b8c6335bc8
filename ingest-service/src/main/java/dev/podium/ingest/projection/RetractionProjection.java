package dev.podium.ingest.projection;

import dev.podium.events.admin.ResultRetracted;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/**
 * ResultRetracted takes a run off leaderboards and comparisons; its own rows stay, marked retracted, and
 * {@code proj_retraction} keeps the reason the run page shows. The first retraction of a run is the one kept.
 */
@ApplicationScoped
public class RetractionProjection implements Projection {

    /** What a retraction sets of its run's {@code proj_run} row (creating it if no other event did yet). */
    private record RetractedRun(UUID runId, long lastPosition) {}

    /** A {@code proj_retraction} row. */
    private record RetractionRow(UUID runId, String reason, String actor, Instant retractedAt, long position) {}

    private static final Columns<RetractedRun> RUN = Columns.of(RetractedRun.class);
    private static final Columns<RetractionRow> RETRACTION = Columns.of(RetractionRow.class);

    private static final String RETRACTED_RUN = """
            INSERT INTO proj_run (run_id, stream_id, status, retracted, last_position)
            SELECT run_id, 'run/' || run_id::text, 'claimed', TRUE, last_position FROM %s
            ON CONFLICT (run_id) DO UPDATE SET retracted = TRUE,
                last_position = greatest(proj_run.last_position, excluded.last_position)""".formatted(RUN.unnest("x"));

    private static final String RETRACTION_ROW = """
            INSERT INTO proj_retraction (run_id, reason, actor, retracted_at, position)
            SELECT run_id, reason, actor, retracted_at, position FROM %s
            ON CONFLICT (run_id) DO NOTHING""".formatted(RETRACTION.unnest("x"));

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (!(event.envelope().payload() instanceof ResultRetracted r)) {
            return;
        }
        Rows.writeOne(c, RUN, RETRACTED_RUN, new RetractedRun(r.runId(), event.position()));
        Rows.writeOne(
                c,
                RETRACTION,
                RETRACTION_ROW,
                new RetractionRow(
                        r.runId(), r.reason(), r.actor(), event.envelope().occurredAt(), event.position()));
        touched.run(r.runId());
    }
}
