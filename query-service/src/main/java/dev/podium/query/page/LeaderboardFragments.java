package dev.podium.query.page;

import dev.podium.query.data.Catalog;
import dev.podium.query.stats.LeaderboardExtras;
import dev.podium.query.view.LeaderboardEntry;
import dev.podium.query.view.LeaderboardQuery;
import dev.podium.query.view.LeaderboardView;
import dev.podium.query.view.Option;
import io.quarkus.qute.RawString;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The parts of a leaderboard page that repeat from request to request, each rendered once: a page has some fifty rows of
 * fifteen cells and forty filter options, and evaluating their expressions on every request cost most of its time. Type-safe
 * templates render them (Pages/leaderboardRow.html and leaderboardOptions.html, escaped as the page is), and the read-model cache
 * ({@link Catalog#cached}) keeps them under what they show: a row whose figures change is rendered again, and everything
 * is dropped when the read model changes. Rows are kept per key, metric, failing runs and software filter.
 */
@ApplicationScoped
public class LeaderboardFragments {

    /**
     * The table body (each row its rank, then its cells as rendered once) and the options of each filter. The body is
     * joined here, not in a loop of the template: two expressions a row were a good part of what a page still cost.
     */
    public record Rendered(RawString body, RawString benchmarks, RawString metrics, RawString scenarios, RawString precisions,
            RawString batchSizes, RawString workers, RawString softwareVersions, RawString sources) {
    }

    /** What a row's cells show; equal contents render equal HTML. The entry's rank is left at 0. */
    private record Content(LeaderboardEntry entry, LeaderboardExtras.Columns extras, boolean withExtras, boolean rates,
            boolean failing) {
    }

    private final Catalog catalog;

    public LeaderboardFragments(Catalog catalog) {
        this.catalog = catalog;
    }

    public Rendered of(LeaderboardView view) {
        Map<List<Option>, RawString> options = catalog.cached("leaderboard option html", ConcurrentHashMap::new);
        return new Rendered(rows(view), options(options, view.benchmarks()), options(options, view.metrics()),
                options(options, view.scenarios()), options(options, view.precisions()), options(options, view.batchSizes()),
                options(options, view.workers()), options(options, view.softwareVersions()), options(options, view.sources()));
    }

    /** The options as the page writes them, inside their select: without the line break that ends the template's line. */
    private static RawString options(Map<List<Option>, RawString> rendered, List<Option> options) {
        return rendered.computeIfAbsent(options, o -> new RawString(Pages.Templates.leaderboardOptions(o).render().stripTrailing()));
    }

    private RawString rows(LeaderboardView view) {
        if (view.entries().isEmpty()) {
            return new RawString("");
        }
        LeaderboardQuery q = view.query();
        Map<Content, RawString> rendered = catalog.cached("leaderboard row html\n" + q.benchmark() + "\n" + q.key() + "\n" + q.metric()
                + "\n" + q.includeFailing() + "\n" + q.software(), ConcurrentHashMap::new);
        LeaderboardExtras extras = view.extras();
        boolean rates = extras != null && extras.rateOf() != null;
        StringBuilder body = new StringBuilder(view.entries().size() * 700);
        for (int i = 0; i < view.entries().size(); i++) {
            LeaderboardEntry e = view.entries().get(i);
            LeaderboardExtras.Columns x = extras == null || extras.columns().isEmpty() ? null : extras.columns().get(i);
            Content c = new Content(new LeaderboardEntry(0, e.deviceId(), e.deviceLabel(), e.source(), e.runs(), e.n(), e.mean(),
                    e.ci95Low(), e.ci95High(), e.best(), e.cv()), x, extras != null, rates, q.includeFailing());
            body.append("<tr>\n<td>").append(e.rank()).append("</td>\n")
                    .append(rendered.computeIfAbsent(c, LeaderboardFragments::render).getValue()).append("</tr>\n");
        }
        return new RawString(body.toString());
    }

    private static RawString render(Content c) {
        return new RawString(Pages.Templates.leaderboardRow(c.entry(), c.extras(), c.withExtras(), c.rates(), c.failing()).render());
    }
}
