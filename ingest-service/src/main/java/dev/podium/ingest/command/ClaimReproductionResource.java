package dev.podium.ingest.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.RatioBasis;
import dev.podium.events.published.Reproduction;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.ReproduceRequest;
import io.agroal.api.AgroalDataSource;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code POST /admin/claims/{source}/{claim}/reproduce?pools=a,b}: the campaign that measures a published ratio claim
 * on the given pools ({@link Reproduction}: the claim's one dimension varied by a shipped workload; for a device against
 * another, the same point on two pools, the subject's first). The campaign and its {@code claim_reproduction} row are
 * written in one transaction, so the claim's page finds every campaign made for it.
 */
@Path("/admin/claims/{source}/{claim}/reproduce")
@Produces(MediaType.APPLICATION_JSON)
public class ClaimReproductionResource {

    private final AgroalDataSource dataSource;
    private final JobCommands jobs;
    private final AdminCaller caller;
    private final Validator validator;
    private final ObjectMapper json = EventCodec.newMapper();

    public ClaimReproductionResource(
            AgroalDataSource dataSource, JobCommands jobs, AdminCaller caller, Validator validator) {
        this.dataSource = dataSource;
        this.jobs = jobs;
        this.caller = caller;
        this.validator = validator;
    }

    /**
     * 201 with the campaign; 404 for no such claim; 400 listing what is wrong with the pools and with the claim (a
     * figure, or a claim no shipped workload can vary).
     */
    @POST
    public Response reproduce(
            @PathParam("source") String source,
            @PathParam("claim") String claimId,
            @QueryParam("pools") String poolsParam)
            throws SQLException {
        ReproduceRequest request = ReproduceRequest.fromQuery(poolsParam);
        List<FieldViolation> problems = new ArrayList<>(FieldViolation.all(validator.validate(request)));
        Reproduction.Result result;
        try (Connection c = dataSource.getConnection()) {
            Optional<PublishedClaim> claim = claim(c, source, claimId);
            if (claim.isEmpty()) {
                return Problems.notFound("no published claim " + source + "/" + claimId);
            }
            RatioBasis ratio = claim.get().ratio();
            result = Reproduction.plan(
                    claim.get(),
                    ratio == null ? null : figure(c, source, ratio.numeratorClaimId()),
                    ratio == null ? null : figure(c, source, ratio.denominatorClaimId()));
        }
        if (result.plan().isEmpty()) {
            problems.add(0, new FieldViolation("claim", result.reason()));
        } else if (result.plan().get().crossDevice() && request.pools().size() != 2) {
            Reproduction p = result.plan().get();
            problems.add(new FieldViolation(
                    "pools",
                    "two pools, the subject's (" + p.compared() + ") first, then the " + "baseline's (" + p.baseline()
                            + ")"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        Reproduction plan = result.plan().get();
        List<String> pools = request.pools();
        JobCommands.NewCampaign campaign = new JobCommands.NewCampaign(
                "reproduce " + source + "/" + claimId, plan.spec(), pools, null, null, Map.of());
        List<FieldViolation> jobProblems = jobs.problems(campaign);
        if (!jobProblems.isEmpty()) {
            throw new InvalidRequestException(jobProblems);
        }
        UUID campaignId = UUID.randomUUID();
        List<UUID> jobIds;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                jobIds = jobs.createCampaign(c, campaignId, campaign, caller.tokenName(), caller.writer());
                record(c, campaignId, plan, pools);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("campaign_id", campaignId);
        out.put("job_ids", jobIds);
        out.put("dimension", plan.dimension());
        out.put("baseline", plan.baseline());
        out.put("compared", plan.compared());
        out.put("metric", plan.metric());
        return Response.status(Response.Status.CREATED).entity(out).build();
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

    private void record(Connection c, UUID campaignId, Reproduction plan, List<String> pools) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO claim_reproduction (campaign_id, source, claim_id, dimension, parameter, baseline_value,
                    compared_value, baseline_label, compared_label, metric, pools, actor)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setObject(1, campaignId);
            ps.setString(2, plan.source());
            ps.setString(3, plan.claimId());
            ps.setString(4, plan.dimension());
            ps.setString(5, plan.parameter());
            ps.setString(6, plan.baselineParameterValue());
            ps.setString(7, plan.comparedParameterValue());
            ps.setString(8, plan.baseline());
            ps.setString(9, plan.compared());
            ps.setString(10, plan.metric());
            ps.setArray(11, c.createArrayOf("text", pools.toArray()));
            ps.setString(12, caller.tokenName());
            ps.executeUpdate();
        }
    }
}
