package dev.podium.query.page;

import dev.podium.events.model.ComparisonKey;
import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.CellQueries;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.LeaderboardRow;
import dev.podium.query.data.Queries;
import dev.podium.query.data.RunSummary;
import dev.podium.query.view.LeaderboardService;
import io.quarkus.vertx.http.HttpServerStart;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.jboss.logging.Logger;

/**
 * A starting JVM runs a page's code interpreted for its first few hundred requests, ten times slower than compiled: so
 * before readiness reports UP the service requests each kind of page of the first benchmark from itself, for
 * {@code podium.query.warmup} ({@link WarmedUp} reports readiness DOWN meanwhile). Every request reads and renders (the page cache keeps nothing until changes are heard,
 * which begins after this), so no page served later comes from here.
 */
@ApplicationScoped
public class Warmup {

    private static final Logger LOG = Logger.getLogger(Warmup.class);

    /** The leaderboard's filter parameters and the key dimensions they match. */
    private static final Map<String, String> FILTERS = Map.of(
            "scenario", ComparisonKey.SCENARIO,
            "precision", ComparisonKey.PRECISION,
            "batch", ComparisonKey.BATCH_SIZE,
            "workers", LeaderboardService.WORKERS);

    private final Duration duration;
    private final Queries queries;
    private final CellQueries cells;
    /** Counted down once the warm-up's requests are done (at once when there is none). */
    private final CountDownLatch finished = new CountDownLatch(1);

    public Warmup(QueryConfig config, Queries queries, CellQueries cells) {
        this.duration = config.warmup();
        this.queries = queries;
        this.cells = cells;
        if (duration.isZero()) {
            finished.countDown();
        }
    }

    public boolean done() {
        return finished.getCount() == 0;
    }

    /** Waits until the warm-up's requests are done. */
    public void awaitDone() throws InterruptedException {
        finished.await();
    }

    void warm(@ObservesAsync HttpServerStart start) {
        if (done()) {
            return;
        }
        try {
            List<String> paths = paths();
            int requests = requestAll("http://127.0.0.1:" + start.options().getPort(), paths);
            LOG.infof("warmed up with %d requests over %d pages", requests, paths.size());
        } catch (RuntimeException | IOException e) {
            LOG.warnf("warm-up stopped: %s", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            finished.countDown();
        }
    }

    private int requestAll(String base, List<String> paths) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        long end = System.nanoTime() + duration.toNanos();
        int requests = 0;
        while (System.nanoTime() < end) {
            for (String path : paths) {
                HttpRequest request =
                        HttpRequest.newBuilder(URI.create(base + path)).GET().build();
                client.send(request, HttpResponse.BodyHandlers.discarding());
                requests++;
            }
        }
        return requests;
    }

    /** One of each kind of page, with the first benchmark's first key, run and device where there are some. */
    private List<String> paths() {
        List<String> paths = new ArrayList<>(List.of("/", "/regressions", "/fleet", "/leaderboard", "/compare"));
        List<String> benchmarks = queries.benchmarks();
        if (benchmarks.isEmpty()) {
            return paths;
        }
        String benchmark = benchmarks.get(0);
        paths.add("/leaderboard?benchmark=" + encoded(benchmark) + "&source=measured&sort=best&dir=asc");
        queries.recentRunsOfBenchmark(benchmark, 1).stream()
                .map(RunSummary::runId)
                .forEach(run -> paths.add("/runs/" + run));
        List<KeyRow> keys = queries.keys(benchmark);
        List<String> metrics = queries.metrics(benchmark);
        if (!keys.isEmpty() && !metrics.isEmpty()) {
            KeyRow key = keys.get(0);
            paths.add("/keys/" + encoded(key.keyId()));
            queries.leaderboardOfKey(key.keyId(), metrics.get(0)).stream()
                    .map(LeaderboardRow::deviceId)
                    .findFirst()
                    .ifPresent(device -> paths.addAll(ofDevice(benchmark, key, metrics.get(0), device)));
        }
        return paths;
    }

    /**
     * The history of the key's device, the comparison of the key's group against the device, and the leaderboard with
     * every filter of the key's own values (the framework-version rows are read only then).
     */
    private List<String> ofDevice(String benchmark, KeyRow key, String metric, String device) {
        String b = "benchmark=" + encoded(benchmark);
        List<String> paths = new ArrayList<>();
        paths.add("/history?key=" + encoded(key.keyId()) + "&metric=" + encoded(metric) + "&device=" + encoded(device));
        paths.add("/compare?" + b + "&group=" + encoded(key.keyId()) + "&baseline=" + encoded(device));
        StringBuilder filtered = new StringBuilder("/leaderboard?" + b + "&key=" + encoded(key.keyId()));
        FILTERS.forEach((param, dimension) -> {
            String value = key.dimensions().get(dimension);
            if (value != null) {
                filtered.append('&').append(param).append('=').append(encoded(value));
            }
        });
        cells.frameworkVersions(key.keyId()).stream()
                .findFirst()
                .ifPresent(v -> filtered.append("&software=").append(encoded(v)));
        paths.add(filtered.toString());
        return paths;
    }

    private static String encoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
