package dev.podium.query.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.store.PageChannel;
import dev.podium.query.page.PageCache;
import dev.podium.query.stats.Equivalence;
import dev.podium.query.stats.RatioCell;
import dev.podium.query.view.CatalogService;
import dev.podium.query.view.CatalogViews;
import dev.podium.query.view.ComparisonQuery;
import dev.podium.query.view.ComparisonService;
import dev.podium.query.view.ComparisonView;
import dev.podium.query.view.FleetService;
import dev.podium.query.view.FleetView;
import dev.podium.query.view.KeyListing;
import dev.podium.query.view.LeaderboardEntry;
import dev.podium.query.view.LeaderboardQuery;
import dev.podium.query.view.LeaderboardService;
import dev.podium.query.view.LeaderboardView;
import dev.podium.query.view.LocalQuery;
import dev.podium.query.view.LocalService;
import dev.podium.query.view.LocalView;
import dev.podium.query.view.RunEvents;
import dev.podium.query.view.RunService;
import dev.podium.query.view.RunView;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/** The read API: the data of every page as JSON, and leaderboards and comparisons as CSV. Same query strings as the pages. */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public class ApiResource {

    private static final String CSV = Csv.TYPE;

    private final CatalogService catalog;
    private final LeaderboardService leaderboards;
    private final ComparisonService comparisons;
    private final RunService runs;
    private final LocalService local;
    private final FleetService fleet;
    private final PageCache cache;
    private final ObjectMapper json;

    public ApiResource(
            CatalogService catalog,
            LeaderboardService leaderboards,
            ComparisonService comparisons,
            RunService runs,
            LocalService local,
            FleetService fleet,
            PageCache cache,
            ObjectMapper json) {
        this.cache = cache;
        this.json = json;
        this.local = local;
        this.fleet = fleet;
        this.catalog = catalog;
        this.leaderboards = leaderboards;
        this.comparisons = comparisons;
        this.runs = runs;
    }

    @GET
    @Path("home")
    @Operation(summary = "Benchmarks, devices, recent runs and a fleet summary")
    public CatalogViews.HomeView home(@RestQuery String find) {
        return catalog.home(find);
    }

    @GET
    @Path("local")
    @Operation(
            summary =
                    "The local run's curve over a parameter (dataloader workers), normalised to its own first setting, beside "
                            + "the published devices' normalised curves; never ranked against them")
    public LocalView local(
            @RestQuery @Parameter(description = "the measured benchmark, default podium-reference") String benchmark,
            @RestQuery @Parameter(description = "the published benchmark, default bridgetower-finetune")
                    String published,
            @RestQuery @Parameter(description = "default dataloader_num_workers") String param,
            @RestQuery @Parameter(description = "default train_samples_per_second") String metric) {
        return local.build(new LocalQuery(benchmark, published, param, metric));
    }

    @GET
    @Path("leaderboard")
    @Operation(summary = "Devices ranked under one comparison key and metric, with n, mean, CI95, best, CV and source")
    public LeaderboardView leaderboard(
            @RestQuery String benchmark,
            @RestQuery @Parameter(description = "comparison key id") String key,
            @RestQuery String metric,
            @RestQuery String scenario,
            @RestQuery String precision,
            @RestQuery String batch,
            @RestQuery String workers,
            @RestQuery @Parameter(description = "framework version") String software,
            @RestQuery @Parameter(description = "measured or published") String source,
            @RestQuery @Parameter(description = "mean, best, n, runs, cv, ci or device") String sort,
            @RestQuery @Parameter(description = "asc or desc") String dir,
            @RestQuery
                    @Parameter(
                            description = "failing: also count runs that failed a validity check (left out by default)")
                    String include,
            @RestQuery @Parameter(description = "the equivalence margin in percent (default 5)") String margin) {
        return leaderboards.build(new LeaderboardQuery(
                benchmark, key, metric, scenario, precision, batch, workers, software, source, sort, dir, include,
                margin));
    }

    @GET
    @Path("leaderboard.csv")
    @Produces(CSV)
    @Operation(summary = "The leaderboard as CSV; known_device is false for a device id the alias table does not know")
    public Response leaderboardCsv(
            @RestQuery String benchmark,
            @RestQuery String key,
            @RestQuery String metric,
            @RestQuery String scenario,
            @RestQuery String precision,
            @RestQuery String batch,
            @RestQuery String workers,
            @RestQuery String software,
            @RestQuery String source,
            @RestQuery String sort,
            @RestQuery String dir,
            @RestQuery String include,
            @RestQuery String margin) {
        LeaderboardView v = leaderboard(
                benchmark, key, metric, scenario, precision, batch, workers, software, source, sort, dir, include,
                margin);
        Csv csv = new Csv();
        csv.row(List.of(
                "rank",
                "device_id",
                "device",
                "source",
                "runs",
                "n",
                "mean",
                "ci95_low",
                "ci95_high",
                "best",
                "cv",
                "unit",
                "metric",
                "key_id",
                "comparison_key",
                "known_device"));
        for (LeaderboardEntry e : v.entries()) {
            csv.row(nullable(
                    e.rank(),
                    e.deviceId(),
                    e.deviceLabel(),
                    e.source(),
                    e.runs(),
                    e.n(),
                    e.mean(),
                    e.ci95Low(),
                    e.ci95High(),
                    e.best(),
                    e.cv(),
                    v.unit(),
                    v.query().metric(),
                    v.query().key(),
                    v.key() == null ? null : v.key().canonical(),
                    e.knownDevice()));
        }
        return csv.attachment("leaderboard.csv");
    }

    @GET
    @Path("comparison")
    @Operation(
            summary =
                    "Devices x one parameter with ratios to a baseline device, and the verdict on each published ratio claim")
    public ComparisonView comparison(
            @RestQuery String benchmark,
            @RestQuery String metric,
            @RestQuery @Parameter(description = "the key dimension that varies across columns") String param,
            @RestQuery @Parameter(description = "a key id of the group of keys to compare") String group,
            @RestQuery List<String> devices,
            @RestQuery String baseline,
            @RestQuery String source,
            @RestQuery @Parameter(description = "the equivalence margin in percent (default 5)") String margin) {
        return comparisons.build(
                new ComparisonQuery(benchmark, metric, param, group, devices, baseline, source, margin));
    }

    /** A comparison cell's place: device, source and key. */
    private record CellPlace(String deviceId, String source, String keyId) {}

    @GET
    @Path("comparison.csv")
    @Produces(CSV)
    @Operation(
            summary =
                    "The comparison matrix as CSV: one value and one ratio column per parameter value, then per parameter"
                            + " value the ratio's verdict at the margin and the runs a side that would settle it, the"
                            + " margin, and known_device")
    public Response comparisonCsv(
            @RestQuery String benchmark,
            @RestQuery String metric,
            @RestQuery String param,
            @RestQuery String group,
            @RestQuery List<String> devices,
            @RestQuery String baseline,
            @RestQuery String source,
            @RestQuery String margin) {
        ComparisonView v = comparison(benchmark, metric, param, group, devices, baseline, source, margin);
        Csv csv = new Csv();
        List<Object> header = new ArrayList<>(List.of("device_id", "device", "source", "baseline"));
        v.columns().forEach(c -> {
            header.add(v.query().param() + "=" + c.label());
            header.add("ratio " + v.query().param() + "=" + c.label());
        });
        v.columns().forEach(c -> {
            header.add("verdict " + v.query().param() + "=" + c.label());
            header.add("runs per side " + v.query().param() + "=" + c.label());
            header.add("runs counted " + v.query().param() + "=" + c.label());
            header.add("differs from baseline " + v.query().param() + "=" + c.label());
        });
        header.add("margin");
        header.add("known_device");
        csv.row(header);
        Map<CellPlace, RatioCell> ratios = new HashMap<>();
        v.intervals().forEach(i -> ratios.put(new CellPlace(i.deviceId(), i.source(), i.keyId()), i));
        for (ComparisonView.Row r : v.rows()) {
            List<Object> cells = nullable(r.deviceId(), r.deviceLabel(), r.source(), r.baseline());
            r.cells().forEach(c -> {
                cells.add(c.value() != null ? c.value() : c.notAvailable() ? "n/a" : null);
                cells.add(c.ratioText());
            });
            r.cells().forEach(c -> {
                RatioCell ratio = ratios.get(new CellPlace(r.deviceId(), r.source(), c.keyId()));
                Equivalence e = ratio == null ? null : ratio.equivalence();
                cells.add(e == null ? null : e.text());
                cells.add(e == null ? null : e.runs().most());
                cells.add(
                        ratio == null || ratio.runs() == null
                                ? null
                                : ratio.runs().text());
                cells.add(
                        ratio == null
                                ? null
                                : ratio.differences().stream()
                                        .map(d -> d.setting() + ": " + d.text())
                                        .collect(Collectors.joining("; ")));
            });
            cells.add(v.margin() == null ? null : "\u00b1" + v.margin().text());
            cells.add(r.knownDevice());
            csv.row(cells);
        }
        return csv.attachment("comparison.csv");
    }

    @GET
    @Path("runs/{id}")
    @Operation(
            summary =
                    "A run: parameters, host, accelerators, software, metrics, series charts, validity and event timeline")
    @APIResponse(
            responseCode = "200",
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RunView.class)))
    public byte[] run(
            @RestPath String id,
            @RestQuery
                    @Parameter(
                            description = "the sequence number the events listed follow (the previous page's"
                                    + " events.next); the first page when left out")
                    String after) {
        UUID runId;
        try {
            runId = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new NotFoundException();
        }
        Long eventsAfter = RunEvents.after(after);
        // Kept like the run page, and dropped with it: whoever follows a running run polls this.
        return cache.sent(
                new RunJson(runId, eventsAfter),
                () -> new PageCache.Sent(
                        PageChannel.run(runId),
                        encode(runs.build(runId, eventsAfter).orElseThrow(NotFoundException::new))));
    }

    /** What a run's JSON is kept by: the run and where its event timeline starts. */
    private record RunJson(UUID id, Long eventsAfter) {}

    /** The JSON RESTEasy would write for {@code view}: the same mapper. */
    private byte[] encode(Object view) {
        try {
            return json.writeValueAsBytes(view);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a view always encodes", e);
        }
    }

    @GET
    @Path("devices/{id}")
    @Operation(summary = "A device: its results under every key and its recent runs")
    public CatalogViews.DeviceView device(@RestPath String id) {
        return catalog.device(id).orElseThrow(NotFoundException::new);
    }

    @GET
    @Path("benchmarks/{name}")
    @Operation(summary = "A benchmark: its comparison keys, metrics, claims and recent runs")
    public CatalogViews.BenchmarkView benchmark(@RestPath String name, @RestQuery String page, @RestQuery String find) {
        return catalog.benchmark(name, KeyListing.Asked.of(page, find)).orElseThrow(NotFoundException::new);
    }

    @GET
    @Path("keys/{id}")
    @Operation(summary = "A comparison key: its canonical text and dimensions")
    public CatalogViews.KeyView key(@RestPath String id) {
        return catalog.key(id).orElseThrow(NotFoundException::new);
    }

    @GET
    @Path("fleet")
    @Operation(
            summary =
                    "Campaigns (latest issue) with their jobs per pool: state, lease epoch, run, agent, superseded leases; and every "
                            + "agent with pool, device, last heartbeat, online or offline, and current job")
    public FleetView fleet() {
        return fleet.build();
    }

    private static List<Object> nullable(Object... values) {
        List<Object> out = new ArrayList<>();
        for (Object v : values) {
            out.add(v);
        }
        return out;
    }
}
