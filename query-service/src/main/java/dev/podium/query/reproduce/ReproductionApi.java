package dev.podium.query.reproduce;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestPath;

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
    public ReproductionView claim(@RestPath String source, @RestPath String claim) {
        return service.build(source, claim).orElseThrow(NotFoundException::new);
    }
}
