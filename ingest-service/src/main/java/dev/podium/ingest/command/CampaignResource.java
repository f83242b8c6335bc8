package dev.podium.ingest.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.podium.events.codec.EventCodec;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.NewCampaignRequest;
import dev.podium.ingest.command.request.Pools;
import dev.podium.ingest.command.request.RequestBinder;
import dev.podium.ingest.entity.CampaignEntity;
import dev.podium.ingest.entity.CampaignSecretEntity;
import dev.podium.ingest.entity.JobEntity;
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

    private final FleetCommands fleet;
    private final AdminCaller caller;
    private final RequestBinder binder;
    private final ObjectMapper json = EventCodec.newMapper();

    public CampaignResource(FleetCommands fleet, AdminCaller caller, RequestBinder binder) {
        this.fleet = fleet;
        this.caller = caller;
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
            @QueryParam("schedule") String scheduleParam) {
        RequestBinder.Body read = binder.read(body, headers.getMediaType());
        if (read.tree().isObject() && !read.tree().has("spec") && read.tree().has("benchmark")) {
            read = read.with(JsonNodeFactory.instance.objectNode().set("spec", read.tree()));
        }
        NewCampaignRequest request = binder.valid(binder.bind(read, NewCampaignRequest.class)
                .with(r -> r.overriddenBy(nameParam, Pools.fromQuery(poolsParam), scheduleParam)));
        FleetCommands.NewCampaign campaign = new FleetCommands.NewCampaign(
                request.name(),
                request.spec(),
                List.copyOf(new LinkedHashSet<>(request.pools())),
                request.scheduleOrNull(),
                CampaignPlan.period(request.schedule()).orElse(null),
                new TreeMap<>(request.secrets()),
                request.excludesFlagged());
        FleetCommands.Created created = fleet.createCampaign(campaign, caller.tokenName(), caller.writer());
        return Response.status(Response.Status.CREATED).entity(created(created)).build();
    }

    /** The answer to a campaign's creation: its id and its jobs'. */
    static Map<String, Object> created(FleetCommands.Created created) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("campaign_id", created.campaignId());
        out.put("job_ids", created.jobIds());
        return out;
    }

    @GET
    @Path("/{id}")
    public Response show(@PathParam("id") String id) {
        UUID campaignId;
        try {
            campaignId = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return Problems.notFound("no campaign " + id);
        }
        CampaignEntity campaign = CampaignEntity.findById(campaignId);
        if (campaign == null) {
            return Problems.notFound("no campaign " + id);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("campaign_id", campaignId);
        out.put("name", campaign.name);
        out.put("pools", campaign.poolList());
        out.put("schedule", campaign.schedule);
        out.put("actor", campaign.actor);
        out.put("created_at", campaign.createdAt.toString());
        out.put("last_issued_at", campaign.lastIssuedAt.toString());
        out.put("secret_names", CampaignSecretEntity.names(campaignId));
        List<Map<String, Object>> jobList = new ArrayList<>();
        Map<String, Integer> states = new LinkedHashMap<>();
        for (JobEntity job : JobEntity.ofCampaign(campaignId)) {
            jobList.add(JobResource.job(job, json));
            states.merge(job.state, 1, Integer::sum);
        }
        out.put("states", states);
        out.put("jobs", jobList);
        return Response.ok(out).build();
    }

    /** Stops the campaign's schedule; the jobs already issued go on. */
    @DELETE
    @Path("/{id}/schedule")
    public Response unschedule(@PathParam("id") String id) {
        UUID campaignId;
        try {
            campaignId = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return Problems.notFound("no campaign " + id);
        }
        if (!fleet.unschedule(campaignId)) {
            return Problems.notFound("no campaign " + id);
        }
        return Response.ok(Map.of("campaign_id", campaignId, "schedule", "none"))
                .build();
    }
}
