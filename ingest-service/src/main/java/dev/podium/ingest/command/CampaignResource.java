package dev.podium.ingest.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.JobSpec;
import dev.podium.ingest.store.CampaignSecretStore;
import io.agroal.api.AgroalDataSource;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Campaigns: {@code POST /admin/campaigns} (JSON or YAML: name, spec, pools, schedule, secrets) appends CampaignCreated and one
 * JobRequested per pool and matrix point, relayed to {@code podium.jobs}; {@code GET /admin/campaigns/{id}} shows its
 * jobs and their states; {@code DELETE /admin/campaigns/{id}/schedule} stops its repeats.
 */
@Path("/admin/campaigns")
@Produces(MediaType.APPLICATION_JSON)
public class CampaignResource {

    static final Pattern POOL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    /** Bounds on a campaign's secrets, so that they always fit sealed in one grant. */
    static final int MAX_SECRETS = 32;
    static final int MAX_SECRET_BYTES = 8 * 1024;
    private static final ObjectMapper YAML = new YAMLMapper();

    private final AgroalDataSource dataSource;
    private final JobCommands jobs;
    private final AdminCaller caller;
    private final CampaignSecretStore secrets;
    private final ObjectMapper json = EventCodec.newMapper();

    public CampaignResource(AgroalDataSource dataSource, JobCommands jobs, AdminCaller caller, CampaignSecretStore secrets) {
        this.dataSource = dataSource;
        this.jobs = jobs;
        this.caller = caller;
        this.secrets = secrets;
    }

    @POST
    @Consumes({MediaType.APPLICATION_JSON, "application/yaml", "application/x-yaml", "text/yaml"})
    public Response submit(String body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @QueryParam("pools") String poolsParam, @QueryParam("name") String nameParam,
            @QueryParam("schedule") String scheduleParam) throws SQLException {
        JsonNode doc;
        try {
            boolean yaml = contentType != null && contentType.contains("yaml");
            doc = (yaml ? YAML : json).readTree(body == null ? "" : body);
        } catch (Exception e) {
            return AgentKeyResource.error(Response.Status.BAD_REQUEST, "the body is not JSON or YAML: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        if (doc == null || !doc.isObject()) {
            return AgentKeyResource.error(Response.Status.BAD_REQUEST, "the body must be an object: name, spec, pools, schedule");
        }
        // A file that is a bare job spec (it has a benchmark) is the spec itself.
        JsonNode specNode = doc.has("spec") ? doc.get("spec") : doc.has("benchmark") ? doc : null;
        String name = nameParam != null ? nameParam : doc.path("name").asText(null);
        String schedule = scheduleParam != null ? scheduleParam : doc.path("schedule").asText(null);
        List<String> pools = new ArrayList<>();
        if (poolsParam != null) {
            Arrays.stream(poolsParam.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(pools::add);
        } else {
            doc.path("pools").forEach(p -> pools.add(p.asText()));
        }
        List<String> problems = new ArrayList<>();
        if (name == null || name.isBlank() || name.length() > 256) {
            problems.add("name: required, at most 256 characters");
        }
        pools.stream().filter(p -> !POOL.matcher(p).matches())
                .forEach(p -> problems.add("pools: '" + p + "' must match " + POOL.pattern()));
        if (pools.isEmpty()) {
            problems.add("pools: at least one pool");
        }
        JobSpec spec = null;
        if (specNode == null || !specNode.isObject()) {
            problems.add("spec: required, a job spec object");
        } else {
            try {
                spec = json.treeToValue(specNode, JobSpec.class);
            } catch (Exception e) {
                problems.add("spec: " + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        Map<String, String> secretValues = secrets(doc.path("secrets"), spec, problems);
        Duration period = null;
        try {
            period = CampaignPlan.period(schedule).orElse(null);
        } catch (IllegalArgumentException e) {
            problems.add("schedule: " + e.getMessage());
        }
        if (!problems.isEmpty()) {
            return problems(problems);
        }
        JobCommands.NewCampaign campaign = new JobCommands.NewCampaign(name, spec,
                List.copyOf(new LinkedHashSet<>(pools)), schedule == null || schedule.isBlank() ? null : schedule, period,
                secretValues);
        problems.addAll(jobs.problems(campaign));
        if (!problems.isEmpty()) {
            return problems(problems);
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
            return AgentKeyResource.error(Response.Status.NOT_FOUND, "no campaign " + id);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT name, pools, schedule, actor, created_at, last_issued_at FROM campaign WHERE campaign_id = ?""")) {
                ps.setObject(1, campaignId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return AgentKeyResource.error(Response.Status.NOT_FOUND, "no campaign " + id);
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
            return AgentKeyResource.error(Response.Status.NOT_FOUND, "no campaign " + id);
        }
        try (Connection c = dataSource.getConnection()) {
            if (!jobs.unschedule(c, campaignId)) {
                return AgentKeyResource.error(Response.Status.NOT_FOUND, "no campaign " + id);
            }
        }
        return Response.ok(Map.of("campaign_id", campaignId, "schedule", "none")).build();
    }

    /**
     * The campaign's secret environment ({@code secrets: {NAME: value}}), checked; never echoed in a problem. A name may
     * not also be in the spec's plain environment, where its value would travel in clear.
     */
    private static Map<String, String> secrets(JsonNode node, JobSpec spec, List<String> problems) {
        Map<String, String> out = new TreeMap<>();
        if (node.isMissingNode() || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            problems.add("secrets: must be an object of NAME: value");
            return out;
        }
        int bytes = 0;
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String name = e.getKey();
            if (!ENV_NAME.matcher(name).matches()) {
                problems.add("secrets: '" + name + "' is not an environment variable name (" + ENV_NAME.pattern() + ")");
            } else if (!e.getValue().isTextual() || e.getValue().asText().isEmpty()
                    || e.getValue().asText().indexOf('\0') >= 0) {
                problems.add("secrets." + name + ": must be a non-empty string without NUL");
            } else if (spec != null && spec.environment() != null && spec.environment().containsKey(name)) {
                problems.add("secrets." + name + ": also in spec.environment, where it would be sent in clear");
            } else {
                out.put(name, e.getValue().asText());
                bytes += name.length() + e.getValue().asText().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            }
        }
        if (out.size() > MAX_SECRETS || bytes > MAX_SECRET_BYTES) {
            problems.add("secrets: at most " + MAX_SECRETS + " values of " + MAX_SECRET_BYTES + " bytes in all");
        }
        return out;
    }

    private static Response problems(List<String> problems) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", "the campaign is not valid", "problems", problems)).build();
    }
}
