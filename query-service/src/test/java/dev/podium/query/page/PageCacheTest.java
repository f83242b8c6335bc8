package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.config.QueryConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which renders the page cache keeps when changes are heard while they run. */
class PageCacheTest {

    private final AtomicInteger renders = new AtomicInteger();
    private final AtomicLong nanos = new AtomicLong();
    private PageCache cache;

    @BeforeEach
    void listening() {
        cache = new PageCache(new CacheOn(), nanos::get);
        cache.listening(true);
    }

    @Test
    void changesToRunsAreForgottenOnceNoRenderCanDependOnThem() {
        for (int run = 0; run < 10_000; run++) {
            cache.changed(Set.of("run/" + run));
        }
        assertThat(cache.rememberedChanges()).isEqualTo(10_000);
        nanos.addAndGet(PageCache.REMEMBERED.toNanos() + 1);
        cache.changed(Set.of("run/last"));
        assertThat(cache.rememberedChanges()).isEqualTo(1);
    }

    @Test
    void aRenderLongerThanChangesAreRememberedIsNotKept() {
        render("leaderboard a", "a", () -> nanos.addAndGet(PageCache.REMEMBERED.toNanos()));
        render("leaderboard a", "a", () -> {});
        render("leaderboard a", "a", () -> {});
        assertThat(renders).hasValue(2);
    }

    @Test
    void aChangeToAnotherBenchmarkDuringARenderKeepsThePage() {
        render("leaderboard a", "a", () -> cache.changed(Set.of("b")));
        render("leaderboard a", "a", () -> {});
        assertThat(renders).hasValue(1);
    }

    @Test
    void aChangeToThePagesOwnBenchmarkDuringARenderDropsIt() {
        render("leaderboard a", "a", () -> cache.changed(Set.of("a")));
        render("leaderboard a", "a", () -> {});
        assertThat(renders).hasValue(2);
    }

    @Test
    void aChangeToEveryBenchmarkDuringARenderDropsIt() {
        render("leaderboard a", "a", () -> cache.changed(Set.of("*")));
        render("leaderboard a", "a", () -> {});
        assertThat(renders).hasValue(2);
    }

    @Test
    void aPageOfNoBenchmarkIsDroppedByAnyChange() {
        render("home", null, () -> cache.changed(Set.of("b")));
        render("home", null, () -> {});
        render("home", null, () -> {});
        assertThat(renders).hasValue(2);
        cache.changed(Set.of("c"));
        render("home", null, () -> {});
        assertThat(renders).hasValue(3);
    }

    @Test
    void aChangeAfterTheRenderDropsOnlyItsBenchmarksPages() {
        render("leaderboard a", "a", () -> {});
        render("leaderboard b", "b", () -> {});
        cache.changed(Set.of("a"));
        render("leaderboard a", "a", () -> {});
        render("leaderboard b", "b", () -> {});
        assertThat(renders).hasValue(3);
    }

    private void render(String key, String benchmark, Runnable meanwhile) {
        cache.page(key, () -> {
            renders.incrementAndGet();
            meanwhile.run();
            return new PageCache.Page(benchmark, "<p>" + key + "</p>");
        });
    }

    /** The defaults, cache on. */
    private static final class CacheOn implements QueryConfig {
        @Override
        public Duration onlineWindow() {
            return Duration.ofSeconds(90);
        }

        @Override
        public int recentRuns() {
            return 20;
        }

        @Override
        public int maxRows() {
            return 500;
        }

        @Override
        public Map<String, Double> prices() {
            return Map.of();
        }

        @Override
        public Duration warmup() {
            return Duration.ZERO;
        }

        @Override
        public Cache cache() {
            return new Cache() {
                @Override
                public boolean enabled() {
                    return true;
                }

                @Override
                public long maxPages() {
                    return 100;
                }
            };
        }
    }
}
