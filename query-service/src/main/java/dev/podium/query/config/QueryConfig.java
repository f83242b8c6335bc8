package dev.podium.query.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** query-service settings, under {@code podium.query}. */
@ConfigMapping(prefix = "podium.query")
public interface QueryConfig {

    /** An agent is online when its last heartbeat is more recent than this. */
    @WithDefault("PT90S")
    Duration onlineWindow();

    /** Recent runs shown on the home, device and benchmark pages. */
    @WithDefault("20")
    int recentRuns();

    /**
     * The age at which a cached read model of the leaderboard and comparison pages (benchmarks, keys, metrics, leaderboard
     * rows) is read again in the background, whatever {@link #readModelCheck()} found: the bound for what the check cannot
     * see. Requests go on with the cached value until the new one is read. Every entry in use is read again at this age,
     * which costs CPU in proportion to what is cached: minutes, not seconds.
     */
    @WithDefault("PT5M")
    Duration catalogRefresh();

    /** The read-model cache of leaderboards and comparisons ({@code Catalog}). */
    Cache cache();

    interface Cache {

        /** Off, every page reads the database itself and nothing is kept between requests. */
        @WithDefault("true")
        boolean enabled();
    }

    /** Whether each benchmark's read models are read into the cache when the service starts, before the first visitor. */
    @WithDefault("true")
    boolean warmCache();

    /**
     * How often the event store's high-water mark is read to drop the cached read models when events were appended: new
     * results show on leaderboards and comparisons within this.
     */
    @WithDefault("PT1S")
    Duration readModelCheck();

    /** The most leaderboard rows one page shows. */
    @WithDefault("500")
    int maxRows();

    /**
     * Price per device-hour (US dollars) by canonical device id, e.g. {@code podium.query.prices."nvidia-h100-sxm-80gb"=3.50}:
     * leaderboards show samples per dollar for devices with a price. None by default.
     */
    java.util.Map<String, Double> prices();
}
