package dev.podium.query.serving;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestQuery;

/** /api/v1/serving: the serving view as JSON. */
@Path("/api/v1/serving")
public class ServingApi {

    private final ServingService serving;

    public ServingApi(ServingService serving) {
        this.serving = serving;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary =
                    "Serving results: throughput per accelerator against per-user speed or latency, per device, over the "
                            + "concurrencies measured, with the Pareto front marked")
    public ServingView api(
            @RestQuery String benchmark,
            @RestQuery @Parameter(description = "x axis metric (default output_token_throughput_per_user)") String x,
            @RestQuery
                    @Parameter(description = "y axis metric, shown per accelerator (default output_token_throughput)")
                    String y,
            @RestQuery @Parameter(description = "the key dimension each curve runs over (default concurrency)")
                    String param) {
        return serving.build(new ServingQuery(benchmark, x, y, param));
    }
}
