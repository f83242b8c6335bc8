package dev.podium.ingest.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** The change-point updater and the regression webhook, under {@code podium.history}. */
@ConfigMapping(prefix = "podium.history")
public interface HistoryConfig {

    /**
     * How often the updater looks for touched histories when no batch of this instance woke it (batches of other
     * instances, the command side): a step is on the pages at most this long after its batch plus one update.
     */
    @WithDefault("1s")
    Duration interval();

    Webhook webhook();

    /** New regressions POSTed as JSON to a URL, each at least once, with a stable id to deduplicate on. */
    interface Webhook {

        /** Where to POST; unset: no webhook, and no regression is queued for one. */
        Optional<URI> url();

        /** How often queued regressions are sent. */
        @WithDefault("5s")
        Duration interval();

        /** The wait before the first retry of a failed delivery; it doubles per attempt up to {@link #maxBackoff}. */
        @WithDefault("5s")
        Duration backoff();

        @WithDefault("10m")
        Duration maxBackoff();
    }
}
