package dev.podium.query.data;

import dev.podium.query.config.QueryConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What every leaderboard and comparison request needs before its own rows: the benchmarks, each benchmark's comparison
 * keys (parsed once, not per request) and its metrics with the keys that have rows. These change only when ingest adds a
 * benchmark, a key or a metric, so they are reused for {@code podium.query.catalog-refresh} and then read again.
 */
@ApplicationScoped
public class Catalog {

    private record Entry(Object value, long loadedAt) {
    }

    private final Queries queries;
    private final long refreshNanos;
    private final Map<String, Entry> cache = new ConcurrentHashMap<>();

    public Catalog(Queries queries, QueryConfig config) {
        this.queries = queries;
        Duration refresh = config.catalogRefresh();
        this.refreshNanos = refresh.toNanos();
    }

    public List<String> benchmarks() {
        return cached("benchmarks", queries::benchmarks);
    }

    public List<KeyRow> keys(String benchmark) {
        return cached("keys\n" + benchmark, () -> queries.keys(benchmark));
    }

    public Queries.MetricKeys metricKeys(String benchmark, String source) {
        return cached("metrics\n" + benchmark + "\n" + source, () -> queries.metricKeys(benchmark, source));
    }

    /** Published n/a cells of a benchmark's keys for a metric (device id, key id); they change only when claims are imported. */
    public List<String[]> notAvailable(String benchmark, String metric) {
        return cached("na\n" + benchmark + "\n" + metric, () -> {
            List<String> ids = keys(benchmark).stream().map(KeyRow::keyId).limit(2000).toList();
            return ids.isEmpty() ? List.<String[]>of() : queries.notAvailable(ids, metric);
        });
    }

    /** Anything else derived from the same slowly changing rows, under its own name, reused as long as the rest. */
    @SuppressWarnings("unchecked")
    public <T> T cached(String name, Supplier<T> load) {
        long now = System.nanoTime();
        Entry e = cache.get(name);
        if (e == null || now - e.loadedAt() > refreshNanos) {
            e = new Entry(load.get(), now);
            if (cache.size() > 10_000) {
                cache.clear();
            }
            cache.put(name, e);
        }
        return (T) e.value();
    }
}
