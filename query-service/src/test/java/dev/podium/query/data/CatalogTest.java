package dev.podium.query.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.query.config.QueryConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CatalogTest {

    /** The event store's high-water mark and the benchmark list, as the test sets them; counts the reads of the list. */
    private static final class FakeQueries extends Queries {
        Long mark = 7L;
        long recent = 3;
        final AtomicInteger reads = new AtomicInteger();

        FakeQueries() {
            super(null, config(Duration.ZERO, Duration.ZERO));
        }

        @Override
        public EventStoreMark highWaterMark() {
            return new EventStoreMark(mark, recent);
        }

        @Override
        public List<String> benchmarks() {
            return List.of("read " + reads.incrementAndGet());
        }
    }

    private static QueryConfig config(Duration refresh, Duration check) {
        return config(refresh, check, true);
    }

    private static QueryConfig config(Duration refresh, Duration check, boolean cacheEnabled) {
        return new QueryConfig() {
            public Duration onlineWindow() {
                return Duration.ofSeconds(90);
            }

            public int recentRuns() {
                return 20;
            }


            public Duration catalogRefresh() {
                return refresh;
            }

            public Duration readModelCheck() {
                return check;
            }

            public boolean warmCache() {
                return false;
            }

            public Cache cache() {
                return () -> cacheEnabled;
            }

            public int maxRows() {
                return 500;
            }

            public Map<String, Double> prices() {
                return Map.of();
            }
        };
    }

    @Test
    void whileTheHighWaterMarkStaysPutTheCachedRowsAreReused() {
        FakeQueries queries = new FakeQueries();
        Catalog catalog = new Catalog(queries, config(Duration.ofMinutes(1), Duration.ZERO));

        assertThat(catalog.benchmarks()).containsExactly("read 1");
        assertThat(catalog.benchmarks()).containsExactly("read 1");
        assertThat(queries.reads).hasValue(1);
    }

    @Test
    void switchedOffEveryCallReadsTheDatabase() {
        FakeQueries queries = new FakeQueries();
        Catalog catalog = new Catalog(queries, config(Duration.ofMinutes(1), Duration.ofMinutes(1), false));

        assertThat(catalog.benchmarks()).containsExactly("read 1");
        assertThat(catalog.benchmarks()).containsExactly("read 2");
        assertThat(catalog.cached("derived", () -> "from " + catalog.benchmarks().get(0))).isEqualTo("from read 3");
    }

    @Test
    void anAppendedEventDropsEverythingCached() {
        FakeQueries queries = new FakeQueries();
        Catalog catalog = new Catalog(queries, config(Duration.ofMinutes(1), Duration.ZERO));
        catalog.benchmarks();
        String derived = catalog.cached("derived", () -> "from " + catalog.benchmarks().get(0));

        queries.mark = 8L;

        assertThat(catalog.benchmarks()).containsExactly("read 2");
        assertThat(catalog.cached("derived", () -> "from " + catalog.benchmarks().get(0))).isEqualTo("from read 2").isNotEqualTo(derived);
    }

    @Test
    void anEventCommittedBelowTheGreatestPositionDropsEverythingCachedToo() {
        FakeQueries queries = new FakeQueries();
        Catalog catalog = new Catalog(queries, config(Duration.ofMinutes(1), Duration.ZERO));
        catalog.benchmarks();

        queries.recent = 4;

        assertThat(catalog.benchmarks()).containsExactly("read 2");
    }

    @Test
    void theFirstEventOfAnEmptyStoreCounts() {
        FakeQueries queries = new FakeQueries();
        queries.mark = null;
        Catalog catalog = new Catalog(queries, config(Duration.ofMinutes(1), Duration.ZERO));
        catalog.benchmarks();

        queries.mark = 1L;

        assertThat(catalog.benchmarks()).containsExactly("read 2");
    }

    @Test
    void theMarkIsNotReadAgainWithinTheCheckInterval() {
        FakeQueries queries = new FakeQueries();
        Catalog catalog = new Catalog(queries, config(Duration.ofMinutes(1), Duration.ofMinutes(1)));
        catalog.benchmarks();

        queries.mark = 8L;

        assertThat(catalog.benchmarks()).containsExactly("read 1");
    }

    @Test
    void anEntryPastTheRefreshAgeIsReadAgainInTheBackgroundWhileTheRequestGoesOnWithIt() {
        FakeQueries queries = new FakeQueries();
        List<Runnable> background = new ArrayList<>();
        Catalog catalog = new Catalog(queries, config(Duration.ZERO, Duration.ofMinutes(1)), background::add);
        catalog.benchmarks();

        assertThat(catalog.benchmarks()).containsExactly("read 1");
        assertThat(background).hasSize(1);
        assertThat(catalog.benchmarks()).as("one refresh at a time").containsExactly("read 1");
        assertThat(background).hasSize(1);

        background.get(0).run();

        assertThat(catalog.benchmarks()).containsExactly("read 2");
        assertThat(queries.reads).hasValue(2);
    }

    @Test
    void aBackgroundRefreshOvertakenByAMoveOfTheMarkStoresNothing() {
        FakeQueries queries = new FakeQueries();
        List<Runnable> background = new ArrayList<>();
        Catalog catalog = new Catalog(queries, config(Duration.ZERO, Duration.ZERO), background::add);
        catalog.benchmarks();
        catalog.benchmarks();
        queries.mark = 8L;
        assertThat(catalog.benchmarks()).as("read again at once: the mark moved").containsExactly("read 2");

        background.get(0).run();

        assertThat(queries.reads).as("the stale refresh did not run").hasValue(2);
    }

    @Test
    void requestsForAnEntryBeingReadWaitForThatReadInsteadOfRepeatingIt() throws Exception {
        FakeQueries queries = new FakeQueries();
        Catalog catalog = new Catalog(queries, config(Duration.ofMinutes(1), Duration.ofMinutes(1)), Runnable::run);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger loads = new AtomicInteger();
        List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r);
            threads.add(t);
            return t;
        });
        try {
            List<Future<String>> results = new ArrayList<>();
            results.add(pool.submit(() -> catalog.cached("slow", () -> {
                loads.incrementAndGet();
                started.countDown();
                await(release);
                return "loaded once";
            })));
            started.await();
            for (int i = 0; i < 3; i++) {
                results.add(pool.submit(() -> catalog.cached("slow", () -> "loaded " + loads.incrementAndGet() + " times")));
            }
            // The three others are parked on the first read (none may start its own) before it is let go.
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> threads.size() == 4
                    && threads.stream().filter(t -> t.getState() == Thread.State.WAITING).count() == 4);
            release.countDown();
            for (Future<String> f : results) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo("loaded once");
            }
            assertThat(loads).hasValue(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailedReadIsNotCachedAndTheNextRequestTriesAgain() {
        FakeQueries queries = new FakeQueries();
        Catalog catalog = new Catalog(queries, config(Duration.ofMinutes(1), Duration.ofMinutes(1)), Runnable::run);

        assertThatThrownBy(() -> catalog.cached("flaky", () -> {
            throw new IllegalStateException("database away");
        })).hasMessage("database away");

        assertThat(catalog.cached("flaky", () -> "back")).isEqualTo("back");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aLoadThatOverlapsAMoveOfTheMarkIsNotReused() {
        FakeQueries queries = new FakeQueries();
        Catalog catalog = new Catalog(queries, config(Duration.ofMinutes(1), Duration.ZERO));

        // The mark moves while the value is being read, so the value may predate the event: it serves this request only.
        String first = catalog.cached("derived", () -> {
            queries.mark = 8L;
            catalog.benchmarks();
            return "loaded before the move was seen";
        });

        assertThat(first).isEqualTo("loaded before the move was seen");
        assertThat(catalog.cached("derived", () -> "loaded again")).isEqualTo("loaded again");
    }
}
