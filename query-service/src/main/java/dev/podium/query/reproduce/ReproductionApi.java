package dev.podium.query.reproduce;

import dev.podium.query.api.Csv;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/** /api/v1/claims/{source}/{claim}: a published claim, its reproduction plan and the ratios measured, as JSON. */
@Path("/api/v1/claims/{source}/{claim}")
public class ReproductionApi {

    private final ReproductionService service;

    public ReproductionApi(ReproductionService service) {
        this.service = service;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A published claim, the campaign that measures its ratio on a fleet, and the ratios measured")
    public ReproductionView claim(
            @RestPath String source,
            @RestPath String claim,
            @RestQuery @Parameter(description = "the equivalence margin in percent (default 5)") String margin) {
        return service.build(source, claim, margin).orElseThrow(NotFoundException::new);
    }

    /**
     * The claim's reproductions as CSV, one line per reproduction and pool where it went stale (one line with empty
     * stale columns for a reproduction still current), with the command that re-runs it.
     */
    @GET
    @Path("reproductions.csv")
    @Produces("text/csv; charset=utf-8")
    @Operation(summary = "A claim's reproductions, whether each is stale and where, and the command that re-runs it")
    public Response reproductionsCsv(@RestPath String source, @RestPath String claim) {
        ReproductionView view = service.build(source, claim, null).orElseThrow(NotFoundException::new);
        Csv csv = new Csv();
        csv.row(List.of(
                "campaign_id",
                "pools",
                "created_at",
                "stale_pool",
                "stale_component",
                "stale_from",
                "stale_to",
                "stale_since",
                "rerun"));
        for (ReproductionView.Reproduced r : view.reproductions()) {
            String pools = String.join(" ", r.pools());
            if (r.stale().isEmpty()) {
                csv.row(Arrays.asList(r.campaignId(), pools, r.createdAt(), null, null, null, null, null, r.rerun()));
            }
            for (ReproductionView.Stale s : r.stale()) {
                csv.row(List.of(
                        r.campaignId(),
                        pools,
                        r.createdAt(),
                        s.pool(),
                        s.component(),
                        s.from(),
                        s.to(),
                        s.since(),
                        r.rerun()));
            }
        }
        return Response.ok(csv.toString(), "text/csv; charset=utf-8")
                .header("Content-Disposition", "attachment; filename=\"reproductions.csv\"")
                .build();
    }
}
