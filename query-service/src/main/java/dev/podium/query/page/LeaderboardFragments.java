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
 * ({@link Catalog#cached}) keeps them with what they show: a row whose figures change is rendered again, and everything
 * is dropped when the read model changes. Rows are kept per key, metric, failing runs and software filter.
 */
@ApplicationScoped
public class LeaderboardFragments {

    /**
     * The table body (each row its rank, then its cells as rendered once), the options of each filter, and the key list and
     * sortable headings ({@link LeaderboardHtml}, empty where the page does not show them). The body is joined here, not in
     * a loop of the template: two expressions a row were a good part of what a page still cost.
     */
    public record Rendered(RawString body, RawString benchmarks, RawString metrics, RawString scenarios, RawString precisions,
            RawString batchSizes, RawString workers, RawString softwareVersions, RawString sources, RawString keys,
            RawString sortHeadings) {
    }

    /** What a row's cells show; equal contents render equal HTML. The entry's rank is left at 0. */
    private record Content(LeaderboardEntry entry, LeaderboardExtras.Columns extras, boolean withExtras, boolean rates,
            boolean failing) {
    }

    /**
     * Where a row's cells are kept: a board has one row per device and source. Looking a row up by its content hashed
     * some twenty fields a row on every request; this hashes two strings whose hashes are kept, and the content is then
     * compared, mostly reference by reference, before the cells are used.
     */
    private record Slot(String deviceId, String source) {
    }

    private record Cells(Content content, String html) {
    }

    private static final RawString NONE = new RawString("");

    private final Catalog catalog;

    public LeaderboardFragments(Catalog catalog) {
        this.catalog = catalog;
    }

    public Rendered of(LeaderboardView view) {
        Map<List<Option>, RawString> options = catalog.cached("leaderboard option html", ConcurrentHashMap::new);
        return new Rendered(rows(view), options(options, view.benchmarks()), options(options, view.metrics()),
                options(options, view.scenarios()), options(options, view.precisions()), options(options, view.batchSizes()),
                options(options, view.workers()), options(options, view.softwareVersions()), options(options, view.sources()),
                view.key() == null || view.keys().size() < 2 ? NONE : new RawString(LeaderboardHtml.keys(view)),
                view.key() == null ? NONE : new RawString(LeaderboardHtml.sortHeadings(view)));
    }

    /** The options as the page writes them, inside their select: without the line break that ends the template's line. */
    private static RawString options(Map<List<Option>, RawString> rendered, List<Option> options) {
        return rendered.computeIfAbsent(options, o -> new RawString(Pages.Templates.leaderboardOptions(o).render().stripTrailing()));
    }

    private RawString rows(LeaderboardView view) {
        if (view.entries().isEmpty()) {
            return NONE;
        }
        LeaderboardQuery q = view.query();
        Map<Slot, Cells> rendered = catalog.cached("leaderboard row html\n" + q.benchmark() + "\n" + q.key() + "\n" + q.metric()
                + "\n" + q.includeFailing() + "\n" + q.software(), ConcurrentHashMap::new);
        LeaderboardExtras extras = view.extras();
        boolean rates = extras != null && extras.rateOf() != null;
        StringBuilder body = new StringBuilder(view.entries().size() * 700);
        for (int i = 0; i < view.entries().size(); i++) {
            LeaderboardEntry e = view.entries().get(i);
            LeaderboardExtras.Columns x = extras == null || extras.columns().isEmpty() ? null : extras.columns().get(i);
            Content c = new Content(new LeaderboardEntry(0, e.deviceId(), e.deviceLabel(), e.source(), e.runs(), e.n(), e.mean(),
                    e.ci95Low(), e.ci95High(), e.best(), e.cv()), x, extras != null, rates, q.includeFailing());
            Slot slot = new Slot(e.deviceId(), e.source());
            Cells cells = rendered.get(slot);
            if (cells == null || !cells.content().equals(c)) {
                cells = new Cells(c, render(c));
                rendered.put(slot, cells);
            }
            body.append("<tr>\n<td>").append(e.rank()).append("</td>\n").append(cells.html()).append("</tr>\n");
        }
        return new RawString(body.toString());
    }

    private static String render(Content c) {
        return Pages.Templates.leaderboardRow(c.entry(), c.extras(), c.withExtras(), c.rates(), c.failing()).render();
    }
}
