package dev.podium.ingest.command;

import dev.podium.ingest.command.problem.Problems;
import dev.podium.ingest.command.request.ReproduceRequest;
import jakarta.transaction.Transactional;
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
import java.util.Optional;
import java.util.UUID;

/**
 * {@code POST /admin/reproductions/{campaign}/rerun} (scope operate): the claim's reproduction made again on the same
 * pools at the same accelerators a run, as a new campaign that names the one it renews; what a stale reproduction needs after its pools' software
 * changed. 201 with the new campaign; 404 for no such reproduction.
 */
@Path("/admin/reproductions/{campaign}/rerun")
@Produces(MediaType.APPLICATION_JSON)
public class ReproductionRerunResource {

    /**
     * What a rerun repeats of a reproduction: its claim, its pools and its accelerators a run (null: the claim's own).
     * {@link #reproduced} reads it from the columns {@link #COLUMNS} of {@code claim_reproduction cr}.
     */
    record Reproduced(UUID campaignId, String source, String claimId, String pools, Integer devices) {}

    static final String COLUMNS = "cr.campaign_id, cr.source, cr.claim_id, array_to_string(cr.pools, ','), cr.devices";

    private final EnlistedJdbc jdbc;
    private final ClaimReproductionResource reproductions;
    private final AdminCaller caller;

    public ReproductionRerunResource(EnlistedJdbc jdbc, ClaimReproductionResource reproductions, AdminCaller caller) {
        this.jdbc = jdbc;
        this.reproductions = reproductions;
        this.caller = caller;
    }

    @POST
    @Transactional
    public Response rerun(@PathParam("campaign") String campaign) {
        Optional<UUID> id = parse(campaign);
        Optional<Reproduced> found = id.isEmpty() ? Optional.empty() : jdbc.call(c -> find(c, id.get()));
        if (found.isEmpty()) {
            return Problems.notFound("no reproduction " + campaign);
        }
        return rerun(found.get(), caller.tokenName());
    }

    /** The reproduction made again by {@code actor}; the caller holds the transaction. */
    Response rerun(Reproduced r, String actor) {
        return reproductions.reproduce(
                r.source(),
                r.claimId(),
                ReproduceRequest.fromQuery(
                        r.pools(),
                        null,
                        null,
                        r.devices() == null ? null : r.devices().toString()),
                r.campaignId(),
                actor);
    }

    private static Optional<UUID> parse(String campaign) {
        try {
            return Optional.of(UUID.fromString(campaign));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<Reproduced> find(Connection c, UUID campaign) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + COLUMNS + " FROM claim_reproduction cr WHERE cr.campaign_id = ?")) {
            ps.setObject(1, campaign);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(reproduced(rs)) : Optional.empty();
            }
        }
    }

    static Reproduced reproduced(ResultSet rs) throws SQLException {
        return new Reproduced(
                rs.getObject(1, UUID.class),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getObject(5, Integer.class));
    }
}
