package dev.podium.query.data;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.podium.query.config.QueryConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The read-model cache of leaderboard and comparison pages: the benchmarks, each benchmark's comparison keys (parsed once,
 * not per request), its metrics with the keys that have rows, its leaderboard rows per metric, and whatever the views
 * derive from these alone. Requests still choose their own filters, keys and baselines; only the rows are shared.
 *
 * <p>Freshness: every change to these projections comes with an event appended in the same transaction, so at most once
 * per {@code podium.query.read-model-check} (1 s) one indexed query reads the event store's high-water mark (its greatest
 * position and how many events sit in the 1,000 positions below it, which also catches a writer that commits after one
 * with a greater position) and, when it moved, everything cached is out of date: the next request for an entry reads it
 * again before answering. New results therefore show within the check interval. As a last resort (a transaction
 * committing more than 1,000 positions late, a rebuild by changed projection code), an entry older than
 * {@code podium.query.catalog-refresh} (5 minutes) is read again in the background while requests go on with it, so that the
 * periodic refresh never makes a page wait.
 *
 * <p>One load per entry at a time: requests that want an entry being read wait for that read instead of repeating it (a
 * page's first visit after a change, by many clients at once, costs the database one read). The entries are bounded in
 * number (least recently and frequently used go first), so filter combinations cannot grow the heap without bound.
 *
 * <p>{@code podium.query.cache.enabled=false} switches it off: every call reads.
 */
@ApplicationScoped
public class Catalog {

    /** A value and the generation of the cache it was loaded under: dropping everything is one increment. */
    private record Entry(Object value, long loadedAt, long generation) {
    }

    /** A read in progress and the generation it reads under. */
    private record Loading(long generation, CompletableFuture<Entry> result) {
    }

    private static final Logger LOG = Logger.getLogger(Catalog.class);
    static final int MAX_ENTRIES = 50_000;

    private final Queries queries;
    private final long refreshNanos;
    private final long checkNanos;
    private final Executor background;
    private final Cache<String, Entry> cache = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).build();
    private final Map<String, Loading> loading = new ConcurrentHashMap<>();
    private final AtomicBoolean checking = new AtomicBoolean();
    private volatile long generation;
    private volatile long checkedAt = System.nanoTime();
    private volatile Queries.EventStoreMark highWaterMark;
    private volatile boolean everChecked;
    private final boolean enabled;

    @Inject
    public Catalog(Queries queries, QueryConfig config) {
        this(queries, config, Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "podium-catalog-refresh");
            t.setDaemon(true);
            return t;
        }));
    }

    /** {@code background} runs the refreshes of entries past their age (one thread: they never compete with pages for the pool). */
    Catalog(Queries queries, QueryConfig config, Executor background) {
        this.queries = queries;
        this.refreshNanos = config.catalogRefresh().toNanos();
        this.checkNanos = config.readModelCheck().toNanos();
        this.background = background;
        this.enabled = config.cache().enabled();
    }

    /** Stops the background refreshes with the service, before its data source goes. */
    @PreDestroy
    void stop() {
        if (background instanceof ExecutorService service) {
            service.shutdownNow();
        }
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

    /** Anything else derived from the same rows alone, under its own name, dropped together with them. */
    @SuppressWarnings("unchecked")
    public <T> T cached(String name, Supplier<T> load) {
        if (!enabled) {
            return load.get();
        }
        long now = System.nanoTime();
        checkHighWaterMark(now);
        long current = generation;
        Entry e = cache.getIfPresent(name);
        if (e == null || e.generation() != current) {
            e = load(name, load, current);
        } else if (now - e.loadedAt() > refreshNanos) {
            refreshInBackground(name, load, current);
        }
        return (T) e.value();
    }

    /**
     * Reads an entry, or waits for the read of it already in progress under the same generation. Loaded after reading the
     * generation: if the mark moves meanwhile, the entry is already out of date and the next request reads it again.
     */
    private Entry load(String name, Supplier<?> load, long current) {
        Loading mine = new Loading(current, new CompletableFuture<>());
        Loading running = loading.putIfAbsent(name, mine);
        if (running != null && running.generation() == current) {
            try {
                return running.result().join();
            } catch (CompletionException | CancellationException e) {
                // The other request's read failed; this one tries for itself and reports its own error.
            }
        }
        try {
            Entry e = new Entry(load.get(), System.nanoTime(), current);
            cache.put(name, e);
            mine.result().complete(e);
            return e;
        } catch (RuntimeException | Error e) {
            mine.result().completeExceptionally(e);
            throw e;
        } finally {
            loading.remove(name, mine);
        }
    }

    private void refreshInBackground(String name, Supplier<?> load, long current) {
        Loading mine = new Loading(current, new CompletableFuture<>());
        if (loading.putIfAbsent(name, mine) != null) {
            return;
        }
        try {
            background.execute(() -> {
                try {
                    if (generation == current) {
                        Entry e = new Entry(load.get(), System.nanoTime(), current);
                        cache.asMap().replace(name, e);
                        mine.result().complete(e);
                    } else {
                        mine.result().cancel(false);
                    }
                } catch (RuntimeException e) {
                    // The entry stays as it was; the next request past the age tries again.
                    LOG.warnf("refreshing %s failed: %s", name.replace('\n', ' '), e.getMessage());
                    mine.result().completeExceptionally(e);
                } finally {
                    loading.remove(name, mine);
                }
            });
        } catch (RejectedExecutionException e) {
            loading.remove(name, mine);
        }
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
