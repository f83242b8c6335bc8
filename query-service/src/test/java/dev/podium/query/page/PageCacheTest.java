package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.config.QueryConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.awaitility.Awaitility;
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

    /** A burst of clients on a page nobody has rendered yet costs one render; each gets its bytes. */
    @Test
    void concurrentMissesOfOnePageRenderOnce() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        byte[][] got = new byte[2][];
        Thread first = new Thread(() -> got[0] = cache.page("slow", () -> {
            renders.incrementAndGet();
            started.countDown();
            await(release);
            return new PageCache.Page("a", "<p>slow</p>");
        }));
        first.start();
        started.await();
        Thread second = new Thread(() -> got[1] = cache.page("slow", () -> {
            renders.incrementAndGet();
            return new PageCache.Page("a", "<p>again</p>");
        }));
        second.start();
        awaitWaitingForARender(second);
        release.countDown();
        first.join();
        second.join();
        assertThat(renders).hasValue(1);
        assertThat(got[1]).isEqualTo(got[0]);
    }

    @Test
    void aRenderThatFailsFailsEveryMissWaitingForIt() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Throwable[] thrown = new Throwable[2];
        Thread first = new Thread(() -> {
            try {
                cache.page("failing", () -> {
                    started.countDown();
                    await(release);
                    throw new IllegalStateException("no such benchmark");
                });
            } catch (RuntimeException e) {
                thrown[0] = e;
            }
        });
        first.start();
        started.await();
        Thread second = new Thread(() -> {
            try {
                cache.page("failing", () -> new PageCache.Page("a", "never"));
            } catch (RuntimeException e) {
                thrown[1] = e;
            }
        });
        second.start();
        awaitWaitingForARender(second);
        release.countDown();
        first.join();
        second.join();
        assertThat(thrown[1]).isSameAs(thrown[0]).hasMessage("no such benchmark");
    }

    /** Until {@code t} is parked on the render under way (a CompletableFuture's wait), not anywhere else. */
    private static void awaitWaitingForARender(Thread t) {
        Awaitility.await("the second miss waiting for the first render")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(1))
                .until(() -> t.getState() == Thread.State.WAITING
                        && LockSupport.getBlocker(t) != null
                        && LockSupport.getBlocker(t)
                                .getClass()
                                .getName()
                                .startsWith(CompletableFuture.class.getName()));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
        public Map<String, Double> ownedPrices() {
            return Map.of();
        }

        @Override
        public double electricityPerKwh() {
            return 0.13;
        }

        @Override
        public Duration warmup() {
            return Duration.ZERO;
        }

        @Override
        public Equivalence equivalence() {
            return new Equivalence() {
                @Override
                public double margin() {
                    return 5;
                }

                @Override
                public Map<String, Double> margins() {
                    return Map.of();
                }
            };
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
