package dev.podium.query.page;

import dev.podium.query.data.Catalog;
import dev.podium.query.stats.LeaderboardExtras;
import dev.podium.query.view.LeaderboardEntry;
import dev.podium.query.view.LeaderboardQuery;
import dev.podium.query.view.LeaderboardView;
import io.quarkus.qute.RawString;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The rows of a leaderboard page, each rendered once: a page has some fifty rows of fifteen cells, and evaluating their
 * expressions on every request cost most of its time. A row's cells but its rank are rendered by the {@code row} fragment
 * of the leaderboard template (so escaped as the page is) and kept in the read-model cache ({@link Catalog#cached}) per
 * key, metric, failing runs and software filter, under what they show: a row whose figures change is rendered again, and
 * everything is dropped when the read model changes.
 */
@ApplicationScoped
public class LeaderboardRows {

    /** A ranked row: its rank and the HTML of its other cells. */
    public record Row(int rank, RawString cells) {
    }

    /** What a row's cells show; equal contents render equal HTML. The entry's rank is left at 0. */
    private record Content(LeaderboardEntry entry, LeaderboardExtras.Columns extras, boolean withExtras, boolean rates,
            boolean failing) {
    }

    private final Catalog catalog;

    public LeaderboardRows(Catalog catalog) {
        this.catalog = catalog;
    }

    /** The rows of the view's entries, in their order. */
    public List<Row> of(LeaderboardView view) {
        if (view.entries().isEmpty()) {
            return List.of();
        }
        LeaderboardQuery q = view.query();
        Map<Content, RawString> rendered = catalog.cached("leaderboard row html\n" + q.benchmark() + "\n" + q.key() + "\n" + q.metric()
                + "\n" + q.includeFailing() + "\n" + q.software(), ConcurrentHashMap::new);
        LeaderboardExtras extras = view.extras();
        boolean rates = extras != null && extras.rateOf() != null;
        List<Row> rows = new ArrayList<>(view.entries().size());
        for (int i = 0; i < view.entries().size(); i++) {
            LeaderboardEntry e = view.entries().get(i);
            LeaderboardExtras.Columns x = extras == null || extras.columns().isEmpty() ? null : extras.columns().get(i);
            Content c = new Content(new LeaderboardEntry(0, e.deviceId(), e.deviceLabel(), e.source(), e.runs(), e.n(), e.mean(),
                    e.ci95Low(), e.ci95High(), e.best(), e.cv()), x, extras != null, rates, q.includeFailing());
            rows.add(new Row(e.rank(), rendered.computeIfAbsent(c, LeaderboardRows::render)));
        }
        return rows;
    }

    private static RawString render(Content c) {
        return new RawString(Pages.Templates.leaderboard$row(c.entry(), c.extras(), c.withExtras(), c.rates(), c.failing()).render());
    }
}
