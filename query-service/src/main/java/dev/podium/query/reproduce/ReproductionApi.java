package dev.podium.query.reproduce;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
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
}
