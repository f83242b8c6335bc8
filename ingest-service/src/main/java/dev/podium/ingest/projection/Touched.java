package dev.podium.ingest.projection;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;

/**
 * What a batch changed that leaderboard rows depend on (runs and (comparison key, metric) pairs), and state that
 * projections keep for the length of one batch.
 */
public final class Touched {

    public record KeyMetric(String keyId, String metric) {
    }

    private final Set<UUID> runs = new LinkedHashSet<>();
    private final Set<KeyMetric> keyMetrics = new LinkedHashSet<>();
    private final java.util.Map<Class<?>, Object> state = new java.util.HashMap<>();

    /** A projection's state for this batch, created on first use. */
    public <T> T state(Class<T> type, java.util.function.Supplier<T> create) {
        return type.cast(state.computeIfAbsent(type, t -> create.get()));
    }

    public void run(UUID runId) {
        runs.add(runId);
    }

    public void keyMetric(String keyId, String metric) {
        if (keyId != null && metric != null) {
            keyMetrics.add(new KeyMetric(keyId, metric));
        }
    }

    public Set<UUID> runs() {
        return runs;
    }

    public Set<KeyMetric> keyMetrics() {
        return keyMetrics;
    }

    public boolean isEmpty() {
        return runs.isEmpty() && keyMetrics.isEmpty();
    }
}
