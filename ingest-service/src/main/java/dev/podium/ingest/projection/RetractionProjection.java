package dev.podium.ingest.projection;

import dev.podium.events.admin.ResultRetracted;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * ResultRetracted takes a run off leaderboards and comparisons; its own rows stay, marked retracted, and
 * {@code proj_retraction} keeps the reason the run page shows. The first retraction of a run is the one kept.
 */
@ApplicationScoped
public class RetractionProjection implements Projection {

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (!(event.envelope().payload() instanceof ResultRetracted r)) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_run (run_id, stream_id, status, retracted, last_position)
                VALUES (?, 'run/' || ?::text, 'claimed', TRUE, ?)
                ON CONFLICT (run_id) DO UPDATE SET retracted = TRUE,
                    last_position = greatest(proj_run.last_position, excluded.last_position)""")) {
            Sql.setUuid(ps, 1, r.runId());
            Sql.setUuid(ps, 2, r.runId());
            ps.setLong(3, event.position());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_retraction (run_id, reason, actor, retracted_at, position) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (run_id) DO NOTHING""")) {
            Sql.setUuid(ps, 1, r.runId());
            ps.setString(2, r.reason());
            ps.setString(3, r.actor());
            ps.setTimestamp(4, java.sql.Timestamp.from(event.envelope().occurredAt()));
            ps.setLong(5, event.position());
            ps.executeUpdate();
        }
        touched.run(r.runId());
    }
}
