package dev.podium.query.serving;

import dev.podium.query.api.Csv;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestQuery;

/** /api/v1/serving: the serving view as JSON, and each curve's value and ratio at the target as CSV. */
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
                            + "concurrencies measured, with the Pareto front marked, and each device's throughput per "
                            + "accelerator at a target (p99 TTFT at most X ms, or per-user speed at least Y) with its ratio "
                            + "to a baseline device")
    public ServingView api(
            @RestQuery String benchmark,
            @RestQuery @Parameter(description = "x axis metric (default output_token_throughput_per_user)") String x,
            @RestQuery
                    @Parameter(description = "y axis metric, shown per accelerator (default output_token_throughput)")
                    String y,
            @RestQuery @Parameter(description = "the key dimension each curve runs over (default concurrency)")
                    String param,
            @RestQuery("target_metric")
                    @Parameter(
                            description = "the metric the target is on (default ttft_p99_ms where measured, else x); "
                                    + "at most the target where lower is better, at least it where higher is")
                    String targetMetric,
            @RestQuery
                    @Parameter(
                            description =
                                    "the target, above 0 and at most 1000000 (default the middle of the range every "
                                            + "device measured)")
                    String target,
            @RestQuery @Parameter(description = "the device each ratio at the target is against") String baseline,
            @RestQuery @Parameter(description = "the equivalence margin in percent (default 5)") String margin) {
        return serving.build(ServingQuery.of(benchmark, x, y, param, targetMetric, target, baseline, margin));
    }

    @GET
    @Path("at-target.csv")
    @Produces(Csv.TYPE)
    @Operation(
            summary =
                    "Each device's throughput per accelerator at the target, its interval, and its ratio to the baseline "
                            + "with the ratio's interval, verdict and margin, as CSV; same query string as /api/v1/serving")
    public Response csv(
            @RestQuery String benchmark,
            @RestQuery String x,
            @RestQuery String y,
            @RestQuery String param,
            @RestQuery("target_metric") String targetMetric,
            @RestQuery String target,
            @RestQuery String baseline,
            @RestQuery String margin) {
        ServingView view = api(benchmark, x, y, param, targetMetric, target, baseline, margin);
        Csv csv = new Csv();
        csv.row(List.of(
                "group",
                "device_id",
                "curve",
                "target_metric",
                "target",
                "target_is_at_most",
                "target_defaulted",
                "status",
                "value",
                "ci95_low",
                "ci95_high",
                "df",
                "from",
                "to",
                "baseline",
                "ratio",
                "ratio_ci95_low",
                "ratio_ci95_high",
                "ratio_df",
                "verdict",
                "margin",
                "runs_to_tell_apart",
                "runs_to_show_same",
                "note"));
        for (ServingView.Group g : view.groups()) {
            for (ServingView.Curve c : g.curves()) {
                csv.row(row(g, c));
            }
        }
        return csv.attachment("serving-at-target.csv");
    }

    private static List<Object> row(ServingView.Group g, ServingView.Curve c) {
        ServingView.Target t = g.target();
        AtTarget a = c.atTarget();
        ServingView.Ratio r = c.ratio();
        boolean interval = r != null && r.interval() != null;
        List<Object> cells = new ArrayList<>(Arrays.asList(
                g.label(),
                c.deviceId(),
                c.deviceLabel(),
                t == null ? null : t.metric(),
                t == null ? null : t.value(),
                t == null ? null : t.lowerIsBetter(),
                t == null ? null : t.defaulted(),
                a.status(),
                a.value(),
                a.low(),
                a.high(),
                a.df(),
                a.from(),
                a.to(),
                t == null ? null : t.baseline()));
        cells.addAll(Arrays.asList(
                interval ? r.interval().ratio() : null,
                interval ? r.interval().low() : null,
                interval ? r.interval().high() : null,
                interval ? r.interval().df() : null,
                interval ? r.equivalence().text() : null,
                interval ? r.equivalence().marginText() : null,
                interval ? r.equivalence().runs().toTellApart() : null,
                interval ? r.equivalence().runs().toShowSame() : null,
                r == null ? null : r.note()));
        return cells;
    }
}
