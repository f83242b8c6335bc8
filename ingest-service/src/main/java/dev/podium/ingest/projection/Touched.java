package dev.podium.ingest.projection;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

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
    private final Set<UUID> sampledRuns = new LinkedHashSet<>();
    private final Set<String> pageKeys = new LinkedHashSet<>();
    private boolean newBenchmark;
    private boolean everyPage;
    private final Set<Result> newResults = new HashSet<>();
    private final Map<Class<?>, Object> state = new HashMap<>();

    /** A projection's state for this batch, created on first use. */
    public <T> T state(Class<T> type, Supplier<T> create) {
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

    /** A run whose power samples this batch stored: its energy cells may change. */
    public void sampled(UUID runId) {
        sampledRuns.add(runId);
    }

    public Set<UUID> sampledRuns() {
        return sampledRuns;
    }

    /** A comparison key whose page rows an aggregate rewrote. */
    public void pageKey(String keyId) {
        pageKeys.add(keyId);
    }

    public Set<String> pageKeys() {
        return pageKeys;
    }

    /** A benchmark no page listed before this batch: every page's list of benchmarks changes. */
    public void newBenchmark() {
        newBenchmark = true;
    }

    /** An entry every page may list was hidden or shown again: every page changes. */
    public void everyPage() {
        everyPage = true;
    }

    /** Whether every page changed: a new benchmark (every page lists them) or an entry hidden or shown again. */
    public boolean changesEveryPage() {
        return newBenchmark || everyPage;
    }

    public boolean isEmpty() {
        return runs.isEmpty() && keyMetrics.isEmpty() && devices.isEmpty();
    }
}
