package dev.podium.ingest.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.CancelJobRequest;
import dev.podium.ingest.entity.JobEntity;
import jakarta.validation.Valid;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** {@code GET /admin/jobs/{id}} and {@code POST /admin/jobs/{id}/cancel} (JobCancelled, relayed to the agents). */
@Path("/admin/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobResource {

    private final FleetCommands fleet;
    private final AdminCaller caller;
    private final ObjectMapper json = EventCodec.newMapper();

    public JobResource(FleetCommands fleet, AdminCaller caller) {
        this.fleet = fleet;
        this.caller = caller;
    }

    @GET
    @Path("/{id}")
    public Response show(@PathParam("id") String id) {
        // A lambda, not a method reference: Panache implements findByIdOptional on JobEntity, not on its superclass.
        Optional<JobEntity> job = uuid(id).flatMap(jobId -> JobEntity.findByIdOptional(jobId));
        if (job.isEmpty()) {
            return Problems.notFound("no job " + id);
        }
        Map<String, Object> out = job(job.get(), json);
        out.put("campaign_id", job.get().campaignId);
        return Response.ok(out).build();
    }

    /** Cancels a job that is requested or assigned: 200 with its state; 404 unknown; 409 when it has already ended. */
    @POST
    @Path("/{id}/cancel")
    public Response cancel(@PathParam("id") String id, @Valid CancelJobRequest body) {
        Optional<UUID> jobId = uuid(id);
        if (jobId.isEmpty()) {
            return Problems.notFound("no job " + id);
        }
        String reason = body == null ? null : body.reason();
        Optional<FleetCommands.Cancellation> job =
                fleet.cancel(jobId.get(), reason, caller.tokenName(), caller.writer());
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

    /** A job as the admin API shows it: its parameters are those of its spec. */
    static Map<String, Object> job(JobEntity job, ObjectMapper json) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("job_id", job.jobId);
        j.put("issue", job.issue);
        j.put("pool", job.pool);
        try {
            JsonNode parameters = json.readTree(job.spec).get("parameters");
            j.put(
                    "parameters",
                    parameters == null || parameters.isNull() ? Map.of() : json.treeToValue(parameters, Map.class));
        } catch (Exception e) {
            throw new IllegalStateException("stored parameters always decode", e);
        }
        j.put("state", job.state);
        j.put("lease_epoch", job.leaseEpoch);
        j.put("run_id", job.runId);
        j.put("agent_id", job.agentId);
        j.put("lease_expires_at", job.leaseExpiresAt == null ? null : job.leaseExpiresAt.toString());
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
