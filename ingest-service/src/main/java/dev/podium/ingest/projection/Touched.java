package dev.podium.ingest.projection;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;

/**
 * What a batch changed that leaderboard rows depend on (runs and (comparison key, metric) pairs), and state that
 * projections keep for the length of one batch.
 */
public final class Touched {

    public record KeyMetric(String keyId, String metric) {}

    /** One device's rows under a (key, metric): what a run changes. */
    public record KeyMetricDevice(String keyId, String metric, String deviceId) {

        public KeyMetric pair() {
            return new KeyMetric(keyId, metric);
        }
    }

    private final Set<UUID> runs = new LinkedHashSet<>();
    private final Set<KeyMetric> keyMetrics = new LinkedHashSet<>();
    private final Set<KeyMetricDevice> devices = new LinkedHashSet<>();
    private final Set<Result> newResults = new java.util.HashSet<>();
    private final java.util.Map<Class<?>, Object> state = new java.util.HashMap<>();

    /** A projection's state for this batch, created on first use. */
    public <T> T state(Class<T> type, java.util.function.Supplier<T> create) {
        return type.cast(state.computeIfAbsent(type, t -> create.get()));
    }

    /** A result row, by its primary key. */
    public record Result(UUID runId, String metric) {}

    /** A result row this batch inserted (not one it changed): no leaderboard row holds it yet. */
    public void newResult(UUID runId, String metric) {
        newResults.add(new Result(runId, metric));
    }

    public boolean isNewResult(UUID runId, String metric) {
        return newResults.contains(new Result(runId, metric));
    }

    public void run(UUID runId) {
        runs.add(runId);
    }

    public void keyMetric(String keyId, String metric) {
        if (keyId != null && metric != null) {
            keyMetrics.add(new KeyMetric(keyId, metric));
        }
    }

    /** A device's rows that results left when they moved to another key or device. */
    public void device(String keyId, String metric, String deviceId) {
        if (keyId != null && metric != null && deviceId != null) {
            devices.add(new KeyMetricDevice(keyId, metric, deviceId));
        }
    }

    public Set<KeyMetricDevice> devices() {
        return devices;
    }

    public Set<UUID> runs() {
        return runs;
    }

    public Set<KeyMetric> keyMetrics() {
        return keyMetrics;
    }

    public boolean isEmpty() {
        return runs.isEmpty() && keyMetrics.isEmpty() && devices.isEmpty();
    }
}
