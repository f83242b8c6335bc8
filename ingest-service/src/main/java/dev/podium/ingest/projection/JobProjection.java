package dev.podium.ingest.projection;

import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.ingest.store.Columns;
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

    /** A {@code proj_job_assignment} row: the grant of a job's lease epoch to a run. */
    private record AssignmentRow(UUID jobId, int leaseEpoch, UUID runId, String agentId, long position) {}

    private static final Columns<AssignmentRow> ASSIGNMENT = Columns.of(AssignmentRow.class);

    private static final String ASSIGNED = """
            INSERT INTO proj_job_assignment (job_id, lease_epoch, run_id, agent_id, position)
            SELECT job_id, lease_epoch, run_id, agent_id, position FROM %s
            ON CONFLICT (job_id, lease_epoch) DO NOTHING""".formatted(ASSIGNMENT.unnest("x"));

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (event.envelope().payload() instanceof JobLeaseExpired x) {
            leaseExpired(c, x, touched);
        } else if (event.envelope().payload() instanceof JobAssigned a) {
            assigned(c, a, event.position(), touched);
        }
    }

    private static void leaseExpired(Connection c, JobLeaseExpired x, Touched touched) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE proj_run SET status = 'superseded' WHERE run_id = ? AND status <> 'superseded'
                RETURNING run_id""")) {
            Sql.setUuid(ps, 1, x.runId());
            superseded(ps, touched);
        }
    }

    private static void assigned(Connection c, JobAssigned a, long position, Touched touched) throws SQLException {
        Rows.writeOne(
                c,
                ASSIGNMENT,
                ASSIGNED,
                new AssignmentRow(a.jobId(), a.leaseEpoch(), a.runId(), a.agentId(), position));
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE proj_run SET status = 'superseded'
                WHERE job_id = ? AND lease_epoch < ? AND run_id <> ? AND status <> 'superseded'
                RETURNING run_id""")) {
            Sql.setUuid(ps, 1, a.jobId());
            ps.setInt(2, a.leaseEpoch());
            Sql.setUuid(ps, 3, a.runId());
            superseded(ps, touched);
        }
    }

    /** The runs an UPDATE marked superseded are recomputed. */
    private static void superseded(PreparedStatement ps, Touched touched) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                touched.run(rs.getObject(1, UUID.class));
            }
        }
    }
}
