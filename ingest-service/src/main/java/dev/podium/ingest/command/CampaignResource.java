package dev.podium.ingest.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.podium.events.codec.EventCodec;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.NewCampaignRequest;
import dev.podium.ingest.command.request.Pools;
import dev.podium.ingest.command.request.RequestBinder;
import dev.podium.ingest.store.CampaignSecretStore;
import io.agroal.api.AgroalDataSource;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Campaigns: {@code POST /admin/campaigns} (JSON or YAML: name, spec, pools, schedule, secrets) appends CampaignCreated and one
 * JobRequested per pool and matrix point, relayed to {@code podium.jobs}; {@code GET /admin/campaigns/{id}} shows its
 * jobs and their states; {@code DELETE /admin/campaigns/{id}/schedule} stops its repeats.
 */
@Path("/admin/campaigns")
@Produces(MediaType.APPLICATION_JSON)
public class CampaignResource {

    private final AgroalDataSource dataSource;
    private final JobCommands jobs;
    private final AdminCaller caller;
    private final CampaignSecretStore secrets;
    private final RequestBinder binder;
    private final ObjectMapper json = EventCodec.newMapper();

    public CampaignResource(
            AgroalDataSource dataSource,
            JobCommands jobs,
            AdminCaller caller,
            CampaignSecretStore secrets,
            RequestBinder binder) {
        this.dataSource = dataSource;
        this.jobs = jobs;
        this.caller = caller;
        this.secrets = secrets;
        this.binder = binder;
    }

    /**
     * The body is read here rather than bound as a {@code @Valid} parameter: the query's {@code pools}, {@code name} and
     * {@code schedule} replace the body's before it is checked (a file without pools is valid with {@code ?pools=}), and
     * a file that is a bare job spec (it has a {@code benchmark}) is the campaign's spec. The binding and the checks are
     * those of every admin body ({@link RequestBinder}).
     */
    @POST
    @Consumes({MediaType.APPLICATION_JSON, "application/yaml", "application/x-yaml", "text/yaml"})
    public Response submit(
            InputStream body,
            @Context HttpHeaders headers,
            @QueryParam("pools") String poolsParam,
            @QueryParam("name") String nameParam,
            @QueryParam("schedule") String scheduleParam)
            throws SQLException {
        RequestBinder.Body read = binder.read(body, headers.getMediaType());
        if (read.tree().isObject() && !read.tree().has("spec") && read.tree().has("benchmark")) {
            read = read.with(JsonNodeFactory.instance.objectNode().set("spec", read.tree()));
        }
        NewCampaignRequest request = binder.valid(binder.bind(read, NewCampaignRequest.class)
                .with(r -> r.overriddenBy(nameParam, Pools.fromQuery(poolsParam), scheduleParam)));
        JobCommands.NewCampaign campaign = new JobCommands.NewCampaign(
                request.name(),
                request.spec(),
                List.copyOf(new LinkedHashSet<>(request.pools())),
                request.scheduleOrNull(),
                CampaignPlan.period(request.schedule()).orElse(null),
                new TreeMap<>(request.secrets()));
        List<FieldViolation> problems = jobs.problems(campaign);
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        UUID campaignId = UUID.randomUUID();
        List<UUID> jobIds;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                jobIds = jobs.createCampaign(c, campaignId, campaign, caller.tokenName(), caller.writer());
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("campaign_id", campaignId);
        out.put("job_ids", jobIds);
        return Response.status(Response.Status.CREATED).entity(out).build();
    }

    @GET
    @Path("/{id}")
    public Response show(@PathParam("id") String id) throws SQLException {
        UUID campaignId;
        try {
            campaignId = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return Problems.notFound("no campaign " + id);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT name, pools, schedule, actor, created_at, last_issued_at FROM campaign WHERE campaign_id = ?""")) {
                ps.setObject(1, campaignId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Problems.notFound("no campaign " + id);
                    }
                    out.put("campaign_id", campaignId);
                    out.put("name", rs.getString(1));
                    out.put("pools", List.of((String[]) rs.getArray(2).getArray()));
                    out.put("schedule", rs.getString(3));
                    out.put("actor", rs.getString(4));
                    out.put("created_at", rs.getTimestamp(5).toInstant().toString());
                    out.put("last_issued_at", rs.getTimestamp(6).toInstant().toString());
                }
            }
            out.put("secret_names", secrets.names(c, campaignId));
            List<Map<String, Object>> jobList = new ArrayList<>();
            Map<String, Integer> states = new LinkedHashMap<>();
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT job_id, issue, pool, spec->'parameters', state, lease_epoch, run_id, agent_id, lease_expires_at
                    FROM job WHERE campaign_id = ? ORDER BY issue, created_at, pool, job_id""")) {
                ps.setObject(1, campaignId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        jobList.add(JobResource.job(rs, json));
                        states.merge(rs.getString(5), 1, Integer::sum);
                    }
                }
            }
            out.put("states", states);
            out.put("jobs", jobList);
        }
        return Response.ok(out).build();
    }

    /** Stops the campaign's schedule; the jobs already issued go on. */
    @DELETE
    @Path("/{id}/schedule")
    public Response unschedule(@PathParam("id") String id) throws SQLException {
        UUID campaignId;
        try {
            campaignId = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return Problems.notFound("no campaign " + id);
        }
        try (Connection c = dataSource.getConnection()) {
            if (!jobs.unschedule(c, campaignId)) {
                return Problems.notFound("no campaign " + id);
            }
        }
        return Response.ok(Map.of("campaign_id", campaignId, "schedule", "none"))
                .build();
    }
}
