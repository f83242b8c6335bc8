package dev.podium.query.page;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.podium.events.store.PageChannel;
import dev.podium.query.config.QueryConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
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

    /** A page as it is sent: its ASCII bytes ({@link AsciiReferences}). */
    private record Sent(String changedBy, byte[] body) {

        static Sent of(Page page) {
            return new Sent(page.changedBy(), AsciiReferences.bytes(page.html()));
        }
    }

    private final boolean enabled;
    private final Cache<Object, Sent> pages;
    /** Moves on every change: a change's number, in the order heard. */
    private final AtomicLong changes = new AtomicLong();
    /** The number of the last change to each benchmark, and of the last one to all of them. */
    private final Map<String, Long> lastChangeOf = new ConcurrentHashMap<>();

    private volatile long lastChangeToAll;

    private volatile boolean listening;

    public PageCache(QueryConfig config) {
        this.enabled = config.cache().enabled();
        this.pages =
                Caffeine.newBuilder().maximumSize(config.cache().maxPages()).build();
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * The bytes of the page kept for {@code key}, or of the one {@code render} makes (kept when no change came
     * meanwhile).
     */
    public byte[] page(Object key, Supplier<Page> render) {
        if (!listening) {
            return Sent.of(render.get()).body();
        }
        Sent kept = pages.getIfPresent(key);
        if (kept != null) {
            return kept.body();
        }
        long before = changes.get();
        Sent page = Sent.of(render.get());
        if (listening && !changedSince(page.changedBy(), before)) {
            pages.put(key, page);
            // A change heard between the check and the put may have swept the pages before this one was in.
            if (changedSince(page.changedBy(), before)) {
                pages.invalidate(key);
            }
        }
        return page.body();
    }

    /** Whether a change that a page of {@code benchmark} (null: of none) depends on was heard after change {@code n}. */
    private boolean changedSince(String benchmark, long n) {
        long last =
                benchmark == null ? changes.get() : Math.max(lastChangeToAll, lastChangeOf.getOrDefault(benchmark, 0L));
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

    /** How many changes were heard (and connections made): what {@code podium.pages.changes.heard} reports. */
    public long changesHeard() {
        return changes.get();
    }
}
