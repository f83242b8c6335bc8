package dev.podium.query.stats;

import dev.podium.query.data.Catalog;
import dev.podium.query.data.KeyRow;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The reads of {@link StatsQueries} that leaderboard and comparison pages make, through the read-model cache
 * ({@link Catalog}): runs, results and power samples are projections of the event store, so they are dropped with the
 * leaderboard rows when its high-water mark moves, and pages make no query of their own while it stands still. Run values
 * are kept per key, so that every page showing a key shares them.
 */
@ApplicationScoped
public class StatsCache {

    private final StatsQueries stats;
    private final Catalog catalog;

    public StatsCache(StatsQueries stats, Catalog catalog) {
        this.stats = stats;
        this.catalog = catalog;
    }

    /** {@link StatsQueries#runValues}, key by key. */
    public List<StatsQueries.RunValues> runValues(List<String> keyIds, String metric, boolean includeFailing) {
        List<StatsQueries.RunValues> out = new ArrayList<>();
        for (String keyId : keyIds) {
            out.addAll(catalog.<List<StatsQueries.RunValues>>cached("stats run values\n" + metric + "\n" + includeFailing + "\n" + keyId,
                    () -> List.copyOf(stats.runValues(List.of(keyId), metric, includeFailing))));
        }
        return out;
    }

    /** Average system power per run of {@link #runValues} (the first {@code limit} runs), as {@link StatsQueries#systemWatts}. */
    public Map<UUID, Double> systemWatts(List<String> keyIds, String metric, boolean includeFailing, int limit) {
        return catalog.cached("stats system watts " + limit + "\n" + metric + "\n" + includeFailing + "\n" + String.join(",", keyIds),
                () -> Map.copyOf(stats.systemWatts(
                        runValues(keyIds, metric, includeFailing).stream().map(StatsQueries.RunValues::runId).limit(limit).toList())));
    }

    /** Whether any run under the key recorded power samples: without, there is no energy to work out and nothing to read. */
    public boolean hasPower(String benchmark, String keyId, String metric) {
        return catalog.<Set<String>>cached("stats keys with power\n" + benchmark + "\n" + metric, () -> {
            List<String> ids = catalog.keys(benchmark).stream().map(KeyRow::keyId).toList();
            return ids.isEmpty() ? Set.of() : Set.copyOf(stats.keysWithPower(ids, metric));
        }).contains(keyId);
    }
}
