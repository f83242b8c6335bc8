package dev.podium.query.stats;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestQuery;

/** The read API of histories and regressions. Leaderboard extras and comparison intervals come with those endpoints. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class StatsApi {

    private final HistoryService histories;

    public StatsApi(HistoryService histories) {
        this.histories = histories;
    }

    @GET
    @Path("history")
    @Operation(
            summary =
                    "A metric of one device under one comparison key over time (one point per valid run), with its framework "
                            + "versions, the levels and steps found by the step detector, and the detector's method")
    public HistoryView history(
            @RestQuery @Parameter(description = "comparison key id") String key,
            @RestQuery String metric,
            @RestQuery @Parameter(description = "canonical device id") String device) {
        return histories.history(key, metric, device).orElseThrow(NotFoundException::new);
    }

    @GET
    @Path("regressions")
    @Operation(summary = "Steps found in every history, newest first: regressions (default), improvements or all")
    public RegressionsView regressions(
            @RestQuery @Parameter(description = "regressions, improvements or all") String kind,
            @RestQuery String benchmark,
            @RestQuery @Parameter(description = "1 to 500, default 100") String limit) {
        return histories.regressions(kind, benchmark, limit);
    }
}
