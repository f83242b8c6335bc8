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

    /** The most leaderboard rows one page shows. */
    @WithDefault("500")
    int maxRows();

    /**
     * Price per device-hour (US dollars) by canonical device id, e.g. {@code podium.query.prices."nvidia-h100-sxm-80gb"=3.50}:
     * leaderboards show samples per dollar for devices with a price. None by default.
     */
    java.util.Map<String, Double> prices();
}
