package dev.podium.query.page;

import dev.podium.events.store.PageChannel;
import dev.podium.query.stats.AtomFeed;
import dev.podium.query.stats.HistoryService;
import dev.podium.query.stats.HistoryView;
import dev.podium.query.stats.RegressionsView;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestQuery;

/** The history and regressions pages and the regressions Atom feed. */
@Path("/")
public class StatsPages {

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance history(HistoryView view);

        static native TemplateInstance regressions(RegressionsView view);

        static native TemplateInstance regressionsAtom(AtomFeed feed);
    }

    private final HistoryService histories;
    private final PageCache cache;

    public StatsPages(HistoryService histories, PageCache cache) {
        this.histories = histories;
        this.cache = cache;
    }

    /** What a history page is kept by. */
    private record HistoryPage(String key, String metric, String device) {}

    /** What a regressions page is kept by. */
    private record RegressionsPage(String kind, String benchmark, String limit) {}

    /** A history changes with its benchmark's runs (a batch) and its steps (a round of the change-point updater). */
    @GET
    @Path("history")
    @Produces(Pages.HTML_UTF8)
    @Operation(hidden = true)
    public byte[] history(@RestQuery String key, @RestQuery String metric, @RestQuery String device) {
        return cache.page(new HistoryPage(key, metric, device), () -> {
            HistoryView view = histories.history(key, metric, device).orElseThrow(NotFoundException::new);
            return new PageCache.Page(view.benchmark(), Templates.history(view).render());
        });
    }

    /** The steps of every history, and the totals searched, change with each round of the change-point updater. */
    @GET
    @Path("regressions")
    @Produces(Pages.HTML_UTF8)
    @Operation(hidden = true)
    public byte[] regressions(@RestQuery String kind, @RestQuery String benchmark, @RestQuery String limit) {
        return cache.page(
                new RegressionsPage(kind, benchmark, limit),
                () -> new PageCache.Page(
                        PageChannel.STEPS,
                        Templates.regressions(histories.regressions(kind, benchmark, limit))
                                .render()));
    }

    @GET
    @Path("regressions.atom")
    @Produces(AtomFeed.MEDIA_TYPE)
    @Operation(hidden = true)
    public TemplateInstance regressionsAtom(
            @RestQuery String kind, @RestQuery String benchmark, @RestQuery String limit, @Context UriInfo uri) {
        return Templates.regressionsAtom(AtomFeed.of(
                histories.regressions(kind, benchmark, limit), uri.getBaseUri().toString()));
    }
}
