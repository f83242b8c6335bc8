package dev.podium.query.page;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.podium.events.store.PageChannel;
import dev.podium.query.config.QueryConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Rendered leaderboards and comparisons by their query record, each dropped when ingest announces that a batch changed
 * its benchmark ({@link PageChangeListener}). Pages are kept only while the listener is connected, and a page rendered
 * while a change to its own benchmark arrived is not kept: it may have read the rows from before that change. A change
 * to another benchmark does not cost the render: with a fleet writing somewhere every few milliseconds, that would
 * keep almost no page that takes a few milliseconds to render.
 */
@ApplicationScoped
public class PageCache {

    /**
     * A rendered page and the change that drops it ({@link PageChannel}): the benchmark whose rows it shows, its run or
     * {@link PageChannel#STEPS} (null: none, dropped on any change).
     */
    public record Page(String changedBy, String html) {}

    /**
     * A response as it is sent, and the change that drops it: a page's ASCII bytes ({@link AsciiReferences}), or a JSON
     * document's UTF-8.
     */
    public record Sent(String changedBy, byte[] body) {

        static Sent of(Page page) {
            return new Sent(page.changedBy(), AsciiReferences.bytes(page.html()));
        }
    }

    /**
     * How long the last change to each page is remembered: longer than any render that is kept. Every run a fleet writes
     * is such a tag (its page), so they cannot be remembered for good.
     */
    static final Duration REMEMBERED = Duration.ofMinutes(1);

    private final boolean enabled;
    private final Ticker ticker;
    private final Cache<Object, Sent> pages;
    /** Moves on every change: a change's number, in the order heard. */
    private final AtomicLong changes = new AtomicLong();
    /** The number of the last change to each tag (for {@link #REMEMBERED}), and of the last one to all of them. */
    private final Cache<String, Long> lastChangeOf;

    private volatile long lastChangeToAll;

    private volatile boolean listening;

    /** The renders under way, by key, for the misses that come while one runs. */
    private final Map<Object, CompletableFuture<Sent>> rendering = new ConcurrentHashMap<>();

    @Inject
    public PageCache(QueryConfig config) {
        this(config, Ticker.systemTicker());
    }

    PageCache(QueryConfig config, Ticker ticker) {
        this.enabled = config.cache().enabled();
        this.ticker = ticker;
        this.pages =
                Caffeine.newBuilder().maximumSize(config.cache().maxPages()).build();
        this.lastChangeOf = Caffeine.newBuilder()
                .expireAfterWrite(REMEMBERED)
                .ticker(ticker)
                .build();
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * The bytes of the page kept for {@code key}, or of the one {@code render} makes (kept when no change came
     * meanwhile).
     */
    public byte[] page(Object key, Supplier<Page> render) {
        return sent(key, () -> Sent.of(render.get()));
    }

    /**
     * The bytes kept for {@code key}, or those {@code render} makes (kept when no change came meanwhile). Concurrent
     * misses of one key render once: the others wait for that render and send what it made (or its error), so that a
     * burst of clients on a slow page costs the database one render, not one each.
     */
    public byte[] sent(Object key, Supplier<Sent> render) {
        Sent kept = listening ? pages.getIfPresent(key) : null;
        if (kept != null) {
            return kept.body();
        }
        CompletableFuture<Sent> mine = new CompletableFuture<>();
        CompletableFuture<Sent> running = rendering.putIfAbsent(key, mine);
        if (running != null) {
            return awaited(running).body();
        }
        try {
            Sent page = renderAndKeep(key, render);
            mine.complete(page);
            return page.body();
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            rendering.remove(key, mine);
        }
    }

    private static Sent awaited(CompletableFuture<Sent> running) {
        try {
            return running.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }

    private Sent renderAndKeep(Object key, Supplier<Sent> render) {
        if (!listening) {
            return render.get();
        }
        long before = changes.get();
        long started = ticker.read();
        Sent page = render.get();
        boolean remembered = ticker.read() - started < REMEMBERED.toNanos() / 2;
        if (listening && remembered && !changedSince(page.changedBy(), before)) {
            pages.put(key, page);
            // A change heard between the check and the put may have swept the pages before this one was in.
            if (changedSince(page.changedBy(), before)) {
                pages.invalidate(key);
            }
        }
        return page;
    }

    /** Whether a change that a page of {@code benchmark} (null: of none) depends on was heard after change {@code n}. */
    private boolean changedSince(String benchmark, long n) {
        long last = benchmark == null
                ? changes.get()
                : Math.max(lastChangeToAll, lastChangeOf.asMap().getOrDefault(benchmark, 0L));
        return last > n;
    }

    /**
     * What a committed transaction changed, as {@link PageChannel} names it: benchmarks, runs, {@link PageChannel#STEPS}
     * ({@link PageChannel#ALL}: everything).
     */
    void changed(Set<String> changes) {
        long n = this.changes.incrementAndGet();
        if (changes.contains(PageChannel.ALL)) {
            lastChangeToAll = n;
            pages.invalidateAll();
        } else {
            changes.forEach(b -> lastChangeOf.put(b, n));
            pages.asMap().values().removeIf(p -> p.changedBy() == null || changes.contains(p.changedBy()));
        }
    }

    /** Whether changes are being heard: pages are kept only while they are, and none from before. */
    void listening(boolean heard) {
        lastChangeToAll = changes.incrementAndGet();
        pages.invalidateAll();
        listening = enabled && heard;
    }

    /** Whether pages are kept: changes are being heard. */
    boolean isListening() {
        return listening;
    }

    /** How many tags' last changes are remembered now. */
    long rememberedChanges() {
        lastChangeOf.cleanUp();
        return lastChangeOf.estimatedSize();
    }

    /** How many changes were heard (and connections made): what {@code podium.pages.changes.heard} reports. */
    public long changesHeard() {
        return changes.get();
    }
}
