package dev.podium.query.view;

import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.Catalog;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Reads each benchmark's read models into the {@link Catalog} when the service starts, on a thread of its own, so that
 * the first visitor of a benchmark does not wait for the aggregated reads behind its leaderboard and comparison (a few
 * hundred milliseconds per benchmark with a million results). It builds the default leaderboard, the same filtered to a
 * framework version, and the default comparison over each parameter that varies: what they read is what every other
 * view of the benchmark derives from.
 */
@ApplicationScoped
public class CacheWarmer {

    private static final Logger LOG = Logger.getLogger(CacheWarmer.class);

    private final Catalog catalog;
    private final LeaderboardService leaderboards;
    private final ComparisonService comparisons;
    private final QueryConfig config;

    public CacheWarmer(Catalog catalog, LeaderboardService leaderboards, ComparisonService comparisons, QueryConfig config) {
        this.catalog = catalog;
        this.leaderboards = leaderboards;
        this.comparisons = comparisons;
        this.config = config;
    }

    void onStart(@Observes StartupEvent event) {
        if (!config.warmCache() || !config.cache().enabled()) {
            return;
        }
        Thread warm = new Thread(this::warm, "podium-cache-warmer");
        warm.setDaemon(true);
        warm.setPriority(Thread.MIN_PRIORITY);
        warm.start();
    }

    void warm() {
        long t0 = System.nanoTime();
        List<String> benchmarks;
        try {
            benchmarks = catalog.benchmarks();
        } catch (RuntimeException e) {
            LOG.warnf("cache not warmed: %s", e.getMessage());
            return;
        }
        for (String benchmark : benchmarks) {
            try {
                LeaderboardView board = leaderboards.build(new LeaderboardQuery(benchmark, null, null, null, null, null, null, null, null,
                        null, null));
                if (!board.softwareVersions().isEmpty()) {
                    // One framework version reads the benchmark's rows of every version (one aggregated read).
                    leaderboards.build(new LeaderboardQuery(benchmark, board.query().key(), board.query().metric(), null, null, null, null,
                            board.softwareVersions().get(0).value(), null, null, null));
                }
                ComparisonView first = comparisons.build(new ComparisonQuery(benchmark, null, null, null, null, null, null));
                for (Option param : first.params()) {
                    comparisons.build(new ComparisonQuery(benchmark, first.query().metric(), param.value(), null, null, null, null));
                }
            } catch (RuntimeException e) {
                LOG.warnf("cache of %s not warmed: %s", benchmark, e.getMessage());
            }
        }
        LOG.infof("read models of %d benchmarks cached in %d ms", benchmarks.size(), (System.nanoTime() - t0) / 1_000_000);
    }
}
