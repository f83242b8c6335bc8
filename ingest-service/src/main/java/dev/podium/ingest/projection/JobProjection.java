package dev.podium.ingest.projection;

import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

/**
 * {@code proj_job_assignment}; a grant under a later lease epoch marks the runs of earlier epochs superseded, and so does
 * the expiry of a lease (the expired run at once, before any new grant), so nothing that run reports later counts.
 */
@ApplicationScoped
public class JobProjection implements Projection {

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (event.envelope().payload() instanceof JobLeaseExpired x) {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE proj_run SET status = 'superseded' WHERE run_id = ? AND status <> 'superseded'
                    RETURNING run_id""")) {
                Sql.setUuid(ps, 1, x.runId());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        touched.run(rs.getObject(1, UUID.class));
                    }
                }
            }
            return;
        }
        if (!(event.envelope().payload() instanceof JobAssigned a)) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_job_assignment (job_id, lease_epoch, run_id, agent_id, position) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (job_id, lease_epoch) DO NOTHING""")) {
            Sql.setUuid(ps, 1, a.jobId());
            ps.setInt(2, a.leaseEpoch());
            Sql.setUuid(ps, 3, a.runId());
            ps.setString(4, a.agentId());
            ps.setLong(5, event.position());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE proj_run SET status = 'superseded'
                WHERE job_id = ? AND lease_epoch < ? AND run_id <> ? AND status <> 'superseded'
                RETURNING run_id""")) {
            Sql.setUuid(ps, 1, a.jobId());
            ps.setInt(2, a.leaseEpoch());
            Sql.setUuid(ps, 3, a.runId());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    touched.run(rs.getObject(1, UUID.class));
                }
            }
        }
    }
}
