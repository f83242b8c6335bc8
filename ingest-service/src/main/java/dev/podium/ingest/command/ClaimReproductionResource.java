package dev.podium.ingest.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.JobSpec;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.RatioBasis;
import dev.podium.events.published.Reproduction;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.ReproduceRequest;
import dev.podium.ingest.entity.ClaimReproductionEntity;
import jakarta.transaction.Transactional;
import jakarta.validation.Validator;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code POST /admin/claims/{source}/{claim}/reproduce?pools=a,b[&max=12&target_half_width_pct=2][&devices=1]}: the
 * campaign that measures a published ratio claim on the given pools, with adaptive runs when asked ({@link AdaptiveRuns})
 * and at fewer accelerators a run than the claim's when asked ({@link Reproduction#atDevices}) ({@link Reproduction}: the
 * claim's one dimension varied by a shipped workload; for a device against another, the same point on two pools, the
 * subject's first). The campaign and its {@code claim_reproduction} row are written in one transaction, so the claim's
 * page finds every campaign made for it.
 */
@Path("/admin/claims/{source}/{claim}/reproduce")
@Produces(MediaType.APPLICATION_JSON)
public class ClaimReproductionResource {

    private final EnlistedJdbc jdbc;
    private final FleetCommands fleet;
    private final AdminCaller caller;
    private final Validator validator;
    private final ObjectMapper json = EventCodec.newMapper();

    public ClaimReproductionResource(EnlistedJdbc jdbc, FleetCommands fleet, AdminCaller caller, Validator validator) {
        this.jdbc = jdbc;
        this.fleet = fleet;
        this.caller = caller;
        this.validator = validator;
    }

    /**
     * 201 with the campaign; 404 for no such claim; 400 listing what is wrong with the pools and with the claim (a
     * figure, or a claim no shipped workload can vary). One transaction: the campaign is made as every campaign is
     * ({@link FleetCommands#createCampaign}) and its {@code claim_reproduction} row beside it.
     */
    @POST
    @Transactional
    public Response reproduce(
            @PathParam("source") String source,
            @PathParam("claim") String claimId,
            @QueryParam("pools") String poolsParam,
            @QueryParam("max") String max,
            @QueryParam("target_half_width_pct") String targetHalfWidthPct,
            @QueryParam("devices") String devices) {
        return reproduce(
                source,
                claimId,
                ReproduceRequest.fromQuery(poolsParam, max, targetHalfWidthPct, devices),
                null,
                caller.tokenName());
    }

    /**
     * The campaign for the claim as {@code request} asks it, as
     * {@link #reproduce(String, String, String, String, String, String)} answers it; {@code rerunOf} names the
     * reproduction this one renews (null for a new one); {@code actor} the token (or schedule) that asks. The caller
     * holds the transaction.
     */
    Response reproduce(String source, String claimId, ReproduceRequest request, UUID rerunOf, String actor) {
        List<FieldViolation> problems = new ArrayList<>(FieldViolation.all(validator.validate(request)));
        request.unpaired().ifPresent(problems::add);
        Optional<Reproduction.Result> result = jdbc.call(c -> plan(c, source, claimId));
        if (result.isEmpty()) {
            return Problems.notFound("no published claim " + source + "/" + claimId);
        }
        Optional<Reproduction> checked = checked(result.get(), request, problems);
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        Reproduction plan = checked.orElseThrow();
        List<String> pools = request.pools();
        JobSpec spec =
                request.adaptive(plan.metric()).map(plan.spec()::withAdaptive).orElse(plan.spec());
        FleetCommands.Created created = fleet.createCampaign(
                new FleetCommands.NewCampaign(
                        "reproduce " + source + "/" + claimId, spec, pools, null, null, Map.of(), false),
                actor,
                "command:" + actor);
        record(created.campaignId(), plan, request, rerunOf, actor);
        Map<String, Object> out = CampaignResource.created(created);
        if (rerunOf != null) {
            out.put("rerun_of", rerunOf.toString());
        }
        out.put("dimension", plan.dimension());
        out.put("baseline", plan.baseline());
        out.put("compared", plan.compared());
        out.put("metric", plan.metric());
        request.devicesPerRun().ifPresent(n -> out.put("devices", n));
        return Response.status(Response.Status.CREATED).entity(out).build();
    }

    /**
     * The claim's plan at the accelerators a run the request asks, the claim's own when it asks none; empty, with what is
     * wrong added to {@code problems}, when the claim has no plan, its number cannot be chosen, or the pools do not fit.
     */
    private static Optional<Reproduction> checked(
            Reproduction.Result planned, ReproduceRequest request, List<FieldViolation> problems) {
        if (planned.plan().isEmpty()) {
            problems.add(0, new FieldViolation("claim", planned.reason()));
            return Optional.empty();
        }
        Reproduction.Result scaled =
                request.devicesPerRun().map(planned.plan().get()::atDevices).orElse(planned);
        if (scaled.plan().isEmpty()) {
            problems.add(new FieldViolation("devices", scaled.reason()));
            return Optional.empty();
        }
        Reproduction p = scaled.plan().get();
        if (p.crossDevice() && request.pools().size() != 2) {
            problems.add(new FieldViolation(
                    "pools",
                    "two pools, the subject's (" + p.compared() + ") first, then the baseline's (" + p.baseline()
                            + ")"));
        }
        return scaled.plan();
    }

    /** The claim's reproduction plan (or why there is none); empty when there is no such claim. */
    private Optional<Reproduction.Result> plan(Connection c, String source, String claimId) throws SQLException {
        Optional<PublishedClaim> claim = claim(c, source, claimId);
        if (claim.isEmpty()) {
            return Optional.empty();
        }
        RatioBasis ratio = claim.get().ratio();
        return Optional.of(Reproduction.plan(
                claim.get(),
                ratio == null ? null : figure(c, source, ratio.numeratorClaimId()),
                ratio == null ? null : figure(c, source, ratio.denominatorClaimId())));
    }

    private Optional<PublishedClaim> claim(Connection c, String source, String claimId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT claim::text FROM proj_published_claim WHERE source = ? AND claim_id = ?")) {
            ps.setString(1, source);
            ps.setString(2, claimId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                try {
                    return Optional.of(json.readValue(rs.getString(1), PublishedClaim.class));
                } catch (java.io.IOException e) {
                    throw new IllegalStateException("proj_published_claim holds a claim that does not decode", e);
                }
            }
        }
    }

    private PublishedClaim figure(Connection c, String source, String claimId) throws SQLException {
        return claimId == null ? null : claim(c, source, claimId).orElse(null);
    }

    private static void record(
            UUID campaignId, Reproduction plan, ReproduceRequest request, UUID rerunOf, String actor) {
        ClaimReproductionEntity row = new ClaimReproductionEntity();
        row.campaignId = campaignId;
        row.source = plan.source();
        row.claimId = plan.claimId();
        row.dimension = plan.dimension();
        row.parameter = plan.parameter();
        row.baselineValue = plan.baselineParameterValue();
        row.comparedValue = plan.comparedParameterValue();
        row.baselineLabel = plan.baseline();
        row.comparedLabel = plan.compared();
        row.metric = plan.metric();
        row.pools = request.pools().toArray(String[]::new);
        row.devices = request.devicesPerRun().orElse(null);
        row.actor = actor;
        row.rerunOf = rerunOf;
        row.persist();
    }
}
