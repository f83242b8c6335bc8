package dev.podium.query.page;

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
import jakarta.ws.rs.core.MediaType;
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

    public StatsPages(HistoryService histories) {
        this.histories = histories;
    }

    @GET
    @Path("history")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public TemplateInstance history(@RestQuery String key, @RestQuery String metric, @RestQuery String device) {
        return Templates.history(histories.history(key, metric, device).orElseThrow(NotFoundException::new));
    }

    @GET
    @Path("regressions")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public TemplateInstance regressions(@RestQuery String kind, @RestQuery String benchmark, @RestQuery String limit) {
        return Templates.regressions(histories.regressions(kind, benchmark, limit));
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
