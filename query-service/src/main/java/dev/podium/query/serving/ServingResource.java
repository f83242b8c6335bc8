package dev.podium.query.serving;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestQuery;

/** The serving view's page, /serving; {@link ServingApi} returns the same view as JSON. */
@Path("/serving")
public class ServingResource {

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance serving(ServingView view);
    }

    private final ServingService serving;

    public ServingResource(ServingService serving) {
        this.serving = serving;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public TemplateInstance page(
            @RestQuery String benchmark,
            @RestQuery String x,
            @RestQuery String y,
            @RestQuery String param,
            @RestQuery("target_metric") String targetMetric,
            @RestQuery String target,
            @RestQuery String baseline,
            @RestQuery String margin) {
        return Templates.serving(
                serving.build(ServingQuery.of(benchmark, x, y, param, targetMetric, target, baseline, margin)));
    }
}
