package dev.podium.query.page;

import dev.podium.events.store.PageChannel;
import dev.podium.query.view.CatalogService;
import dev.podium.query.view.CatalogViews;
import dev.podium.query.view.ComparisonQuery;
import dev.podium.query.view.ComparisonService;
import dev.podium.query.view.ComparisonView;
import dev.podium.query.view.FleetService;
import dev.podium.query.view.FleetView;
import dev.podium.query.view.KeyListing;
import dev.podium.query.view.LeaderboardQuery;
import dev.podium.query.view.LeaderboardService;
import dev.podium.query.view.LeaderboardView;
import dev.podium.query.view.LocalQuery;
import dev.podium.query.view.LocalService;
import dev.podium.query.view.LocalView;
import dev.podium.query.view.Option;
import dev.podium.query.view.RunEvents;
import dev.podium.query.view.RunService;
import dev.podium.query.view.RunView;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

/** The HTML pages. Each renders the same view its /api/v1 endpoint returns; every page works without JavaScript. */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class Pages {

    /** What the other pages are sent as once {@link EncodedResponses} has encoded them; cached pages come encoded. */
    static final String HTML_UTF8 = "text/html;charset=UTF-8";

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance home(CatalogViews.HomeView view);

        static native TemplateInstance leaderboard(LeaderboardView view);

        static native TemplateInstance comparison(ComparisonView view);

        static native TemplateInstance run(RunView view);

        static native TemplateInstance device(CatalogViews.DeviceView view);

        static native TemplateInstance benchmark(CatalogViews.BenchmarkView view);

        static native TemplateInstance fleet(FleetView view);

        static native TemplateInstance key(CatalogViews.KeyView view);

        static native TemplateInstance local(LocalView view);
    }

    private final CatalogService catalog;
    private final LeaderboardService leaderboards;
    private final ComparisonService comparisons;
    private final RunService runs;
    private final LocalService local;
    private final FleetService fleet;
    private final PageCache cache;

    public Pages(
            CatalogService catalog,
            LeaderboardService leaderboards,
            ComparisonService comparisons,
            RunService runs,
            LocalService local,
            FleetService fleet,
            PageCache cache) {
        this.cache = cache;
        this.local = local;
        this.fleet = fleet;
        this.catalog = catalog;
        this.leaderboards = leaderboards;
        this.comparisons = comparisons;
        this.runs = runs;
    }

    @GET
    @Operation(hidden = true)
    public TemplateInstance home(@RestQuery String find) {
        return Templates.home(catalog.home(find));
    }

    @GET
    @Path("leaderboard")
    @Produces(HTML_UTF8)
    @Operation(hidden = true)
    public byte[] leaderboard(
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
        LeaderboardQuery query = new LeaderboardQuery(
                benchmark, key, metric, scenario, precision, batch, workers, software, source, sort, dir, include,
                margin);
        return cache.page(query, () -> {
            LeaderboardView view = leaderboards.build(query);
            return new PageCache.Page(
                    selected(view.benchmarks()), Templates.leaderboard(view).render());
        });
    }

    @GET
    @Path("compare")
    @Produces(HTML_UTF8)
    @Operation(hidden = true)
    public byte[] comparison(
            @RestQuery String benchmark,
            @RestQuery String metric,
            @RestQuery String param,
            @RestQuery String group,
            @RestQuery List<String> devices,
            @RestQuery String baseline,
            @RestQuery String source,
            @RestQuery String margin) {
        ComparisonQuery query = new ComparisonQuery(benchmark, metric, param, group, devices, baseline, source, margin);
        return cache.page(query, () -> {
            ComparisonView view = comparisons.build(query);
            return new PageCache.Page(
                    selected(view.benchmarks()), Templates.comparison(view).render());
        });
    }

    /** The benchmark a page shows: the one selected among its options. */
    private static String selected(List<Option> benchmarks) {
        return benchmarks.stream()
                .filter(Option::selected)
                .map(Option::value)
                .findFirst()
                .orElse(null);
    }

    @GET
    @Path("local")
    @Operation(hidden = true)
    public TemplateInstance local(
            @RestQuery String benchmark,
            @RestQuery String published,
            @RestQuery String param,
            @RestQuery String metric) {
        return Templates.local(local.build(new LocalQuery(benchmark, published, param, metric)));
    }

    /** What a run page is kept by: the run and where its event timeline starts. */
    private record RunPage(UUID id, Long eventsAfter) {}

    @GET
    @Path("runs/{id}")
    @Produces(HTML_UTF8)
    @Operation(hidden = true)
    public byte[] run(@RestPath String id, @RestQuery String after) {
        UUID runId = parseUuid(id);
        Long eventsAfter = RunEvents.after(after);
        return cache.page(
                new RunPage(runId, eventsAfter),
                () -> new PageCache.Page(
                        PageChannel.run(runId),
                        Templates.run(runs.build(runId, eventsAfter).orElseThrow(NotFoundException::new))
                                .render()));
    }

    @GET
    @Path("devices/{id}")
    @Operation(hidden = true)
    public TemplateInstance device(@RestPath String id) {
        return Templates.device(catalog.device(id).orElseThrow(NotFoundException::new));
    }

    @GET
    @Path("benchmarks/{name}")
    @Operation(hidden = true)
    public TemplateInstance benchmark(@RestPath String name, @RestQuery String page, @RestQuery String find) {
        return Templates.benchmark(
                catalog.benchmark(name, KeyListing.Asked.of(page, find)).orElseThrow(NotFoundException::new));
    }

    @GET
    @Path("keys/{id}")
    @Operation(hidden = true)
    public TemplateInstance key(@RestPath String id) {
        return Templates.key(catalog.key(id).orElseThrow(NotFoundException::new));
    }

    @GET
    @Path("fleet")
    @Operation(hidden = true)
    public TemplateInstance fleet() {
        return Templates.fleet(fleet.build());
    }

    static UUID parseUuid(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new NotFoundException();
        }
    }
}
