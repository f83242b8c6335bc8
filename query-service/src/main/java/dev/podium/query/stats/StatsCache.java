package dev.podium.query.stats;

import dev.podium.query.data.Catalog;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The reads of {@link StatsQueries} that leaderboard and comparison pages make on every request, through the read-model
 * cache ({@link Catalog}): runs, results and power samples are projections of the event store, so they are dropped with
 * the leaderboard rows when its high-water mark moves, and pages make no query of their own while it stands still.
 */
@ApplicationScoped
public class StatsCache {

    private final StatsQueries stats;
    private final Catalog catalog;

    public StatsCache(StatsQueries stats, Catalog catalog) {
        this.stats = stats;
        this.catalog = catalog;
    }

    /** {@link StatsQueries#runValues}, shared by every page that asks for the same keys and metric. */
    public List<StatsQueries.RunValues> runValues(List<String> keyIds, String metric, boolean includeFailing) {
        return catalog.cached(name("run values", keyIds, metric, includeFailing),
                () -> List.copyOf(stats.runValues(keyIds, metric, includeFailing)));
    }

    /** Average system power per run of {@link #runValues} (the first {@code limit} runs), as {@link StatsQueries#systemWatts}. */
    public Map<UUID, Double> systemWatts(List<String> keyIds, String metric, boolean includeFailing, int limit) {
        return catalog.cached(name("system watts " + limit, keyIds, metric, includeFailing), () -> Map.copyOf(stats.systemWatts(
                runValues(keyIds, metric, includeFailing).stream().map(StatsQueries.RunValues::runId).limit(limit).toList())));
    }

    private static String name(String what, List<String> keyIds, String metric, boolean includeFailing) {
        return "stats " + what + "\n" + metric + "\n" + includeFailing + "\n" + String.join(",", keyIds);
    }
}
