package dev.podium.ingest.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.CancelJobRequest;
import io.agroal.api.AgroalDataSource;
import jakarta.validation.Valid;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** {@code GET /admin/jobs/{id}} and {@code POST /admin/jobs/{id}/cancel} (JobCancelled, relayed to the agents). */
@Path("/admin/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobResource {

    private final AgroalDataSource dataSource;
    private final JobCommands jobs;
    private final AdminCaller caller;
    private final ObjectMapper json = EventCodec.newMapper();

    public JobResource(AgroalDataSource dataSource, JobCommands jobs, AdminCaller caller) {
        this.dataSource = dataSource;
        this.jobs = jobs;
        this.caller = caller;
    }

    @GET
    @Path("/{id}")
    public Response show(@PathParam("id") String id) throws SQLException {
        Optional<UUID> jobId = uuid(id);
        if (jobId.isEmpty()) {
            return Problems.notFound("no job " + id);
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("""
                SELECT job_id, issue, pool, spec->'parameters', state, lease_epoch, run_id, agent_id, lease_expires_at,
                       campaign_id
                FROM job WHERE job_id = ?""")) {
            ps.setObject(1, jobId.get());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Problems.notFound("no job " + id);
                }
                Map<String, Object> out = job(rs, json);
                out.put("campaign_id", rs.getObject(10));
                return Response.ok(out).build();
            }
        }
    }

    /** Cancels a job that is requested or assigned: 200 with its state; 404 unknown; 409 when it has already ended. */
    @POST
    @Path("/{id}/cancel")
    public Response cancel(@PathParam("id") String id, @Valid CancelJobRequest body) throws SQLException {
        Optional<UUID> jobId = uuid(id);
        if (jobId.isEmpty()) {
            return Problems.notFound("no job " + id);
        }
        String reason = body == null ? null : body.reason();
        Optional<JobCommands.Cancellation> job;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                job = jobs.cancel(c, jobId.get(), reason, caller.tokenName(), caller.writer());
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
        if (job.isEmpty()) {
            return Problems.notFound("no job " + id);
        }
        if (!job.get().cancelled()) {
            return Problems.conflict(
                    "job " + id + " has already ended: " + job.get().before());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("job_id", job.get().jobId());
        out.put("state", job.get().after());
        return Response.ok(out).build();
    }

    /** A job row of {@code job_id, issue, pool, parameters, state, lease_epoch, run_id, agent_id, lease_expires_at}. */
    static Map<String, Object> job(ResultSet rs, ObjectMapper json) throws SQLException {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("job_id", rs.getObject(1));
        j.put("issue", rs.getInt(2));
        j.put("pool", rs.getString(3));
        try {
            String parameters = rs.getString(4);
            j.put("parameters", parameters == null ? Map.of() : json.readValue(parameters, Map.class));
        } catch (Exception e) {
            throw new IllegalStateException("stored parameters always decode", e);
        }
        j.put("state", rs.getString(5));
        j.put("lease_epoch", rs.getInt(6));
        j.put("run_id", rs.getObject(7));
        j.put("agent_id", rs.getString(8));
        Timestamp expires = rs.getTimestamp(9);
        j.put("lease_expires_at", expires == null ? null : expires.toInstant().toString());
        return j;
    }

    private static Optional<UUID> uuid(String id) {
        try {
            return Optional.of(UUID.fromString(id));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
