package dev.podium.query.data;

import dev.podium.query.config.QueryConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The framework versions seen under each comparison key, for the leaderboard's software filter. Reading them per request
 * would scan every run of the key (proj_run has no index on the version), so the whole map is read in one aggregate at
 * start and refreshed in the background when older than {@code podium.query.software-versions-refresh}.
 */
@ApplicationScoped
public class SoftwareVersions {

    private static final Logger LOG = Logger.getLogger(SoftwareVersions.class);

    private final Queries queries;
    private final QueryConfig config;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile Map<String, List<String>> byKey;
    private volatile Instant loadedAt = Instant.EPOCH;

    public SoftwareVersions(Queries queries, QueryConfig config) {
        this.queries = queries;
        this.config = config;
    }

    void onStart(@Observes StartupEvent event) {
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.warnf("framework versions not loaded at start: %s", e.getMessage());
        }
    }

    /** The versions seen under a key; at most one refresh runs at a time, and a request never waits for one. */
    public List<String> of(String keyId) {
        if (byKey == null) {
            refresh();
        } else if (loadedAt.plus(config.softwareVersionsRefresh()).isBefore(Instant.now()) && refreshing.compareAndSet(false, true)) {
            CompletableFuture.runAsync(() -> {
                try {
                    refresh();
                } finally {
                    refreshing.set(false);
                }
            });
        }
        Map<String, List<String>> m = byKey;
        return m == null ? List.of() : m.getOrDefault(keyId, List.of());
    }

    private void refresh() {
        byKey = queries.frameworkVersionsByKey();
        loadedAt = Instant.now();
    }
}
