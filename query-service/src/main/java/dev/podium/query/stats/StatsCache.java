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

    /**
     * The {@link LogSample} of {@link StatsQueries#intervalSamples} for every key of the benchmark, by key, then device: one
     * aggregated read per benchmark and metric serves every comparison of it, whatever devices, baseline and columns a
     * request picks, and each side's logs are taken once, not once per cell and baseline. A request looks up each column's
     * map once and then finds its devices in a map of one key's devices: one large map looked up per cell cost a cache miss
     * or more per probe, a tenth of the comparison page's time.
     */
    public Map<String, Map<String, LogSample>> intervalSamples(String benchmark, String metric) {
        return catalog.cached("stats interval samples\n" + benchmark + "\n" + metric, () -> {
            List<String> ids = catalog.keys(benchmark).stream().map(KeyRow::keyId).toList();
            Map<String, Map<String, LogSample>> byKey = new HashMap<>();
            if (!ids.isEmpty()) {
                stats.intervalSamples(ids, metric).forEach(s -> byKey.computeIfAbsent(s.keyId(), k -> new HashMap<>())
                        .put(s.deviceId(), LogSample.of(s.values())));
            }
            return byKey;
        });
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
