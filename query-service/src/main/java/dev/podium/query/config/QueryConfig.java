package dev.podium.query.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/** query-service settings, under {@code podium.query}. */
@ConfigMapping(prefix = "podium.query")
public interface QueryConfig {

    /** An agent is online when its last heartbeat is more recent than this. */
    @WithDefault("PT90S")
    Duration onlineWindow();

    /** Recent runs shown on the home, device and benchmark pages. */
    @WithDefault("20")
    int recentRuns();

    /** The most leaderboard rows one page shows. */
    @WithDefault("500")
    int maxRows();

    /**
     * Price per device-hour (US dollars) by canonical device id, e.g. {@code podium.query.prices."nvidia-h100-sxm-80gb"=3.50}:
     * leaderboards show samples per dollar for devices with a price. None by default.
     */
    Map<String, Double> prices();

    /**
     * How long a starting service renders its pages (through its own HTTP port, nothing kept) before readiness reports
     * UP, so that the first request a user sends runs compiled code; 0 reports UP at once.
     */
    @WithDefault("6s")
    Duration warmup();

    /** The margin within which two measurements count as the same (see {@code dev.podium.query.stats.Equivalence}). */
    Equivalence equivalence();

    interface Equivalence {

        /** The margin in percent: 5 tells ratios within ±5% of 1 apart from larger differences. */
        @WithDefault("5")
        double margin();

        /** The margin in percent per benchmark name, where a benchmark's noise or purpose asks for another. */
        Map<String, Double> margins();
    }

    /** The rendered leaderboards and comparisons kept between requests. */
    Cache cache();

    interface Cache {

        /**
         * Keep rendered pages until ingest says (on PostgreSQL's {@code podium_pages} channel) that a batch changed
         * their benchmark; off: every request reads and renders.
         */
        @WithDefault("true")
        boolean enabled();

        /** The most pages kept; the least recently used go first. */
        @WithDefault("2000")
        long maxPages();
    }
}
