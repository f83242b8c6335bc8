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
     * Cloud on-demand price per device-hour (US dollars) by canonical device id, e.g. {@code
     * podium.query.prices."nvidia-h100-sxm-80gb"=3.50}: leaderboards show samples per dollar and cost per million units
     * for devices with a price. None by default: a price is the admin's to state, not ours to guess.
     */
    Map<String, Double> prices();

    /**
     * Own hardware's price per device-hour (US dollars), amortised: what buying, hosting and running the device costs over
     * the hours it serves, e.g. {@code podium.query.owned-prices."nvidia-h100-sxm-80gb"=1.20}. Its cost per unit adds the
     * electricity of the measured energy. None by default.
     */
    Map<String, Double> ownedPrices();

    /** What own hardware pays for electricity, US dollars per kWh; 0.13 is about the US commercial average of 2024. */
    @WithDefault("0.13")
    double electricityPerKwh();

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
