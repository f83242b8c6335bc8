package dev.podium.query.reproduce;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/** A published claim's page, /claims/{source}/{claim}: how to measure its ratio on your fleet, and what was measured. */
@Path("/claims/{source}/{claim}")
public class ReproductionResource {

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance claim(ReproductionView view);
    }

    private final ReproductionService service;

    public ReproductionResource(ReproductionService service) {
        this.service = service;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public TemplateInstance page(@RestPath String source, @RestPath String claim, @RestQuery String margin) {
        return Templates.claim(service.build(source, claim, margin).orElseThrow(NotFoundException::new));
    }
}
