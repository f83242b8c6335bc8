package dev.podium.query.data;

import dev.podium.query.config.QueryConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The read-model cache of leaderboard and comparison pages: the benchmarks, each benchmark's comparison keys (parsed once,
 * not per request), its metrics with the keys that have rows, its leaderboard rows per metric, and whatever the views
 * derive from these alone. Requests still choose their own filters, keys and baselines; only the rows are shared.
 *
 * <p>Freshness: every change to these projections comes with an event appended in the same transaction, so at most once
 * per {@code podium.query.read-model-check} (1 s) one indexed query reads the event store's high-water mark (its greatest
 * position and how many events sit in the 1,000 positions below it, which also catches a writer that commits after one
 * with a greater position) and, when it moved, everything cached is dropped. New results therefore show within the check
 * interval. As a last resort (a transaction committing more than 1,000 positions late, a rebuild by changed projection
 * code), no entry is used longer than {@code podium.query.catalog-refresh} (30 s).
 */
@ApplicationScoped
public class Catalog {

    /** A value and the generation of the cache it was loaded under: dropping everything is one increment. */
    private record Entry(Object value, long loadedAt, long generation) {
    }

    private final Queries queries;
    private final long refreshNanos;
    private final long checkNanos;
    private final Map<String, Entry> cache = new ConcurrentHashMap<>();
    private final AtomicBoolean checking = new AtomicBoolean();
    private volatile long generation;
    private volatile long checkedAt = System.nanoTime();
    private volatile Queries.EventStoreMark highWaterMark;
    private volatile boolean everChecked;

    public Catalog(Queries queries, QueryConfig config) {
        this.queries = queries;
        this.refreshNanos = config.catalogRefresh().toNanos();
        this.checkNanos = config.readModelCheck().toNanos();
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

    /** The leaderboard rows of one key and metric, both sources, from one read of the benchmark's rows of that metric. */
    public List<LeaderboardRow> leaderboard(String benchmark, String keyId, String metric) {
        return leaderboardByKey(benchmark, metric).getOrDefault(keyId, List.of());
    }

    /** The leaderboard rows of a benchmark and metric by key id, both sources; one indexed read per benchmark and metric. */
    public Map<String, List<LeaderboardRow>> leaderboardByKey(String benchmark, String metric) {
        return cached("rows\n" + benchmark + "\n" + metric, () -> queries.leaderboardByKey(benchmark, metric));
    }

    /** Published n/a cells of a benchmark's keys for a metric (device id, key id); they change only when claims are imported. */
    public List<String[]> notAvailable(String benchmark, String metric) {
        return cached("na\n" + benchmark + "\n" + metric, () -> {
            List<String> ids = keys(benchmark).stream().map(KeyRow::keyId).limit(2000).toList();
            return ids.isEmpty() ? List.<String[]>of() : queries.notAvailable(ids, metric);
        });
    }

    /** Measured rows of keys over every completed run, those failing a validity check too (see {@link Queries}). */
    public List<Queries.MeasuredRow> measuredIncludingFailedChecks(List<String> keyIds, String metric) {
        return cached("measured with failing\n" + metric + "\n" + String.join(",", keyIds),
                () -> List.copyOf(queries.measuredIncludingFailedChecks(keyIds, metric)));
    }

    /**
     * The scope and the count of runs failing a validity check per key and device of a benchmark's measured results for a
     * metric ({@link Queries#runFacts}), by key id and device id; one read per benchmark and metric.
     */
    public Map<String, Map<String, Queries.RunFacts>> runFacts(String benchmark, String metric) {
        return cached("run facts\n" + benchmark + "\n" + metric, () -> {
            List<String> ids = keys(benchmark).stream().map(KeyRow::keyId).toList();
            Map<String, Map<String, Queries.RunFacts>> byKey = new HashMap<>();
            if (!ids.isEmpty()) {
                // The failing runs' facts come second and carry the counts; the scope is the same in both.
                queries.runFacts(ids, metric).forEach(f -> byKey.computeIfAbsent(f.keyId(), k -> new HashMap<>()).put(f.deviceId(), f));
            }
            return byKey;
        });
    }

    /** Anything else derived from the same rows alone, under its own name, dropped together with them. */
    @SuppressWarnings("unchecked")
    public <T> T cached(String name, Supplier<T> load) {
        long now = System.nanoTime();
        checkHighWaterMark(now);
        long current = generation;
        Entry e = cache.get(name);
        if (e == null || e.generation() != current || now - e.loadedAt() > refreshNanos) {
            // Loaded after reading the generation: if the mark moves meanwhile, the entry is already out of date and unused.
            e = new Entry(load.get(), now, current);
            if (cache.size() > 10_000) {
                cache.clear();
            }
            cache.put(name, e);
        }
        return (T) e.value();
    }

    /** One request at a time, at most once per check interval, reads the mark; the others go on with what is cached. */
    private void checkHighWaterMark(long now) {
        if ((everChecked && now - checkedAt < checkNanos) || !checking.compareAndSet(false, true)) {
            return;
        }
        try {
            Queries.EventStoreMark mark = queries.highWaterMark();
            if (!everChecked || !Objects.equals(mark, highWaterMark)) {
                highWaterMark = mark;
                generation++;
            }
            everChecked = true;
            checkedAt = now;
        } finally {
            checking.set(false);
        }
    }
}
