package dev.podium.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.sign.EventSigner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The page benchmark. {@code pages-load} stores signed runs in the event store and builds the read models with
 * ingest-service's own projections ({@code POST /admin/rebuild}); {@code pages} then measures query-service's pages
 * by their public URLs only, on a frozen store and while a fleet's events arrive through Kafka and ingest-service
 * ({@code --live}), side by side: latency for one client, throughput for several; then produce-to-visible, pages during a
 * rebuild and the first request after a start. Every ratio is printed beside its absolute figures.
 */
final class PageBench {

    private static final String LOADED_PREFIX = "pages";
    private static final ObjectMapper JSON = new ObjectMapper();

    private PageBench() {}

    /** What both commands need: ingest-service, its admin token, the enrolled agent key, the loaded size, the report. */
    static final class Agent {

        @Option(names = "--ingest", required = true, description = "ingest-service, e.g. http://127.0.0.1:29084")
        String ingest;

        @Option(names = "--token", required = true, description = "an admin token of ingest-service")
        String token;

        @Option(names = "--agent", required = true, description = "the enrolled agent whose key signs the runs")
        String agent;

        @Option(names = "--key-id", required = true)
        String keyId;

        @Option(names = "--secret", required = true, description = "the agent key's secret (URL-safe base64)")
        String secret;

        @Option(names = "--results", defaultValue = "1000000", description = "runs loaded (one result each)")
        long results;

        @Option(names = "--report")
        Path reportFile;
    }

    @Command(
            name = "pages-load",
            mixinStandardHelpOptions = true,
            description = "store N signed result runs in event_store, then POST /admin/rebuild builds the read models")
    static final class Load implements Callable<Integer> {

        @Option(names = "--jdbc", required = true, description = "ingest-service's database (already migrated)")
        String jdbc;

        @Mixin
        Agent agent;

        @Override
        public Integer call() throws Exception {
            Report report = new Report(agent.reportFile);
            PageEvents events = new PageEvents(LOADED_PREFIX, agent.agent, EventSigner.secretBytes(agent.secret));
            long t0 = System.nanoTime();
            long stored;
            try (EventStoreLoader store = new EventStoreLoader(jdbc, agent.keyId, events.codec())) {
                // Chunks are generated and signed on the other cores while this thread inserts the one before, in
                // order.
                ArrayDeque<CompletableFuture<List<EventStoreLoader.Row>>> ahead = new ArrayDeque<>();
                long next = 0;
                while (next < agent.results || !ahead.isEmpty()) {
                    while (next < agent.results && ahead.size() < 4) {
                        ahead.add(generate(events, next, Math.min(agent.results, next + CHUNK), agent.results));
                        next += CHUNK;
                    }
                    for (EventStoreLoader.Row row : ahead.poll().join()) {
                        store.add(row);
                    }
                }
                stored = store.stored();
            }
            report.line(
                    "pages: stored %d signed events (%d runs over %d keys and %d devices) in %.1f s",
                    stored, agent.results, PageEvents.KEYS, PageEvents.DEVICES, (System.nanoTime() - t0) / 1e9);
            Rebuild r = Rebuild.post(agent.ingest, agent.token).succeeded();
            report.line(
                    "pages: POST /admin/rebuild built the read models in %.1f s (%.0f events/s)",
                    r.seconds(), stored / r.seconds());
            long v0 = System.nanoTime();
            try (Connection c = Db.connect(jdbc);
                    var s = c.createStatement()) {
                s.execute("VACUUM (ANALYZE)");
                s.execute("CHECKPOINT");
            }
            report.line("pages: VACUUM (ANALYZE) and CHECKPOINT in %.1f s", (System.nanoTime() - v0) / 1e9);
            return 0;
        }
    }

    /** Runs per generated chunk of the load. */
    private static final int CHUNK = 2000;

    /** Runs {@code from} to {@code to} of {@code total}, signed and prepared for the loader, on the common pool. */
    private static CompletableFuture<List<EventStoreLoader.Row>> generate(
            PageEvents events, long from, long to, long total) {
        return CompletableFuture.supplyAsync(() -> {
            List<EventStoreLoader.Row> rows = new ArrayList<>((int) (2 * (to - from)));
            for (long run = from; run < to; run++) {
                for (ResultEvents.Signed s : events.loaded(run, total)) {
                    rows.add(EventStoreLoader.row(s, events.codec()));
                }
            }
            return rows;
        });
    }

    @Command(
            name = "pages",
            mixinStandardHelpOptions = true,
            description =
                    "measure query-service's pages over a loaded database (see pages-load), optionally with live events")
    static final class Run implements Callable<Integer> {

        @Mixin
        Agent agent;

        @Option(names = "--bootstrap", required = true, description = "the Kafka broker ingest-service consumes from")
        String bootstrap;

        @Option(names = "--topic", defaultValue = "podium.events")
        String topic;

        @Option(
                names = "--live",
                defaultValue = "0",
                description = "events/s arriving through Kafka in the live phase and after it")
        double live;

        @Option(
                names = "--query-jar",
                required = true,
                description = "query-service's target/quarkus-app/quarkus-run.jar")
        Path queryJar;

        @Option(names = "--query-db", required = true, description = "the JDBC URL query-service reads")
        String queryDb;

        @Option(names = "--query-port", defaultValue = "29085")
        int queryPort;

        @Option(
                names = "--pg-pid",
                defaultValue = "0",
                description = "the postmaster's pid: its backends' CPU per request")
        long pgPid;

        @Option(names = "--seconds", defaultValue = "20", description = "seconds per measured phase")
        int seconds;

        @Option(names = "--clients", defaultValue = "4", description = "clients of the throughput phase")
        int clients;

        @Option(names = "--warmup", defaultValue = "5", description = "seconds of warm-up per page and service start")
        int warmup;

        @Option(
                names = "--visible-rate",
                defaultValue = "500",
                description = "events/s of the produce-to-visible phase")
        double visibleRate;

        @Option(
                names = "--cache",
                defaultValue = "both",
                description = "on, off or both (on first): query-service's page cache in the measured phases")
        String cache;

        @Option(
                names = "--skip-rebuild",
                description = "leave out the phase during a rebuild (it replays every loaded event: minutes)")
        boolean skipRebuild;

        @Option(names = "--visible-seconds", defaultValue = "30")
        int visibleSeconds;

        @Option(
                names = "--visible-warmup",
                defaultValue = "30",
                description = "seconds at the produce-to-visible rate before the runs followed are judged: the services"
                        + " compile their per-event code as the rate rises (those runs are reported apart)")
        int visibleWarmup;

        @Option(
                names = "--fixed-urls",
                defaultValue = "0",
                description = "N > 0: each page draws from N URLs chosen once (a fixed list); 0: new parameters per "
                        + "request")
        int fixedUrls;

        @Option(names = "--logs", defaultValue = ".podium/bench", description = "where query-service's logs go")
        Path logs;

        private Report report;
        /** The query-service being measured: its pid gives the CPU per request. */
        private QueryServiceProcess current;

        @Override
        public Integer call() throws Exception {
            report = new Report(agent.reportFile);
            long results = agent.results;
            Map<String, Supplier<String>> random =
                    PageUrls.pages(new PageEvents(LOADED_PREFIX, agent.agent, new byte[0]), results);
            Map<String, Supplier<String>> pages = fixedUrls > 0 ? PageUrls.fixed(random, fixedUrls) : random;
            report.line(
                    "pages: %d loaded runs; live events %s; %d s per phase, %d clients for throughput; URLs: %s; pages:",
                    results,
                    live > 0
                            ? String.format("%.0f/s through Kafka and ingest-service", live)
                            : "none (frozen store only)",
                    seconds,
                    clients,
                    fixedUrls > 0 ? "a fixed list of " + fixedUrls + " per page" : "parameters drawn per request");
            PageUrls.examples(pages).forEach(e -> report.line("pages:   %s", e));
            String tag = Long.toString(System.currentTimeMillis(), 36);
            PageEvents liveEvents =
                    new PageEvents(LOADED_PREFIX + "-live-" + tag, agent.agent, EventSigner.secretBytes(agent.secret));
            try (LiveRuns fleet = new LiveRuns(bootstrap, topic, agent.keyId, liveEvents, results, 0)) {
                fleet.start();
                for (boolean cache : cacheModes()) {
                    String mode = cache ? "cache on" : "cache off";
                    try (QueryServiceProcess qs = startQuery("pages-query-service.log", cache)) {
                        Map<String, Phases> frozen = measurePages(mode + ", frozen store (no events arriving)", pages);
                        if (live > 0) {
                            fleet.rate(live);
                            Thread.sleep(TimeUnit.SECONDS.toMillis(Math.min(5, warmup)));
                            Map<String, Phases> underLoad =
                                    measurePages(String.format("%s, live, %.0f events/s arriving", mode, live), pages);
                            sideBySide(frozen, underLoad);
                        }
                        if (cache == cacheModes().get(0)) {
                            produceToVisible(fleet);
                            if (!skipRebuild) {
                                duringRebuild(pages);
                            }
                        }
                    }
                    fleet.rate(0);
                }
                fleet.rate(live);
                firstRequests(pages);
                report.line("pages: live events sent during the run: %d", fleet.sent());
            }
            return 0;
        }

        /** The page cache settings measured, in order: the first also measures produce-to-visible and the rebuild. */
        private List<Boolean> cacheModes() {
            return switch (cache) {
                case "on" -> List.of(true);
                case "off" -> List.of(false);
                default -> List.of(true, false);
            };
        }

        private QueryServiceProcess startQuery(String log, boolean cache) throws Exception {
            QueryServiceProcess qs = QueryServiceProcess.start(queryJar, queryDb, queryPort, cache, logs.resolve(log));
            try {
                qs.awaitReady(100, 180);
            } catch (IllegalStateException e) {
                qs.close();
                throw e;
            }
            current = qs;
            return qs;
        }

        /** One page's one-client (latency) and many-client (throughput, CPU per request) phases. */
        private record Phases(Phase one, Phase many) {}

        /** Per page: warm-up, then one client (latency), then {@code clients} (throughput and CPU per request). */
        private Map<String, Phases> measurePages(String mode, Map<String, Supplier<String>> pages) throws Exception {
            for (Supplier<String> urls : pages.values()) {
                closedLoop(urls, 2, warmup);
            }
            report.line("pages, %s:", mode);
            report.line(
                    "  %-22s %8s %8s %8s %9s | %9s %9s %11s %11s",
                    "page",
                    "p50 ms",
                    "p99 ms",
                    "max ms",
                    "req/s 1",
                    "req/s " + clients,
                    "÷ trivial",
                    "service µs",
                    "postgres µs");
            Map<String, Phases> out = new LinkedHashMap<>();
            double trivial = Double.NaN;
            for (Map.Entry<String, Supplier<String>> page : pages.entrySet()) {
                Phase one = closedLoop(page.getValue(), 1, seconds);
                Phase many = closedLoop(page.getValue(), clients, seconds);
                if (page.getKey().equals(PageUrls.TRIVIAL)) {
                    trivial = many.throughput();
                }
                out.put(page.getKey(), new Phases(one, many));
                report.line(
                        "  %-22s %8.2f %8.2f %8.2f %9.0f | %9.0f %9.2f %11.0f %11.0f%s",
                        page.getKey(),
                        one.p(50),
                        one.p(99),
                        one.p(100),
                        one.throughput(),
                        many.throughput(),
                        many.throughput() / trivial,
                        many.serviceMicros(),
                        many.postgresMicros(),
                        one.errors() + many.errors() > 0 ? "  errors: " + (one.errors() + many.errors()) : "");
            }
            report.line(
                    "  (service µs and postgres µs: CPU of query-service and of PostgreSQL's backends per request in the "
                            + "%d-client phase)",
                    clients);
            return out;
        }

        /** The two tables' latencies and throughputs per page beside each other, and how much the live load costs. */
        private void sideBySide(Map<String, Phases> frozen, Map<String, Phases> live) {
            report.line("pages, frozen store beside live load (one client's p50 and p99, %d clients' req/s):", clients);
            report.line(
                    "  %-22s %8s %8s %9s | %8s %8s %9s | %11s",
                    "page", "p50 ms", "p99 ms", "req/s", "p50 ms", "p99 ms", "req/s", "p99 live÷frozen");
            for (Map.Entry<String, Phases> e : frozen.entrySet()) {
                Phases f = e.getValue();
                Phases l = live.get(e.getKey());
                report.line(
                        "  %-22s %8.2f %8.2f %9.0f | %8.2f %8.2f %9.0f | %11.2f",
                        e.getKey(),
                        f.one().p(50),
                        f.one().p(99),
                        f.many().throughput(),
                        l.one().p(50),
                        l.one().p(99),
                        l.many().throughput(),
                        l.one().p(99) / f.one().p(99));
            }
        }

        /**
         * Produce → visible: with events arriving at {@code --visible-rate}, one run at a time is followed from the
         * moment its completion is handed to the producer until its run page's JSON ({@code /api/v1/runs/{id}}) says it
         * completed, polled every 2 ms. The first {@code --visible-warmup} seconds at that rate are followed too but
         * reported apart from the runs judged: a rate ten times the live one makes every JVM on the machine compile its
         * per-event code (ingest's C2 threads took about a fifth of a core in the first 30 s at 500 events/s), a cost
         * each process pays once, not the platform's steady state.
         */
        private void produceToVisible(LiveRuns fleet) throws Exception {
            double before = fleet.rate();
            fleet.rate(visibleRate);
            long warm = System.nanoTime() + TimeUnit.SECONDS.toNanos(visibleWarmup);
            long end = warm + TimeUnit.SECONDS.toNanos(visibleSeconds);
            FollowedRuns warming = new FollowedRuns();
            FollowedRuns judged = new FollowedRuns();
            try (KeepAliveClient c = new KeepAliveClient("127.0.0.1", queryPort)) {
                fleet.completions().clear();
                while (System.nanoTime() < end) {
                    fleet.probeNextCompletion();
                    LiveRuns.Completion done = fleet.completions().poll(10, TimeUnit.SECONDS);
                    if (done == null) {
                        throw new IllegalStateException("the live producer sent no completion within 10 s");
                    }
                    (done.sentNanos() < warm ? warming : judged).add(done, follow(c, done));
                }
            }
            fleet.rate(before);
            if (visibleWarmup > 0) {
                report.line(
                        "pages: produce -> visible in the first %d s at %.0f events/s (services warming up, not judged): %s",
                        visibleWarmup, visibleRate, warming.summary());
            }
            report.line(
                    "pages: produce -> visible on /api/v1/runs/{id} at %.0f events/s: %s (target p99 <= 250 ms: %s)",
                    visibleRate, judged.summary(), Report.verdict(judged.timeouts == 0 && judged.p99() <= 250));
            for (String stage : VisibleStages.report(queryDb, judged.stages)) {
                report.line("pages:   %s", stage);
            }
        }

        /** When a followed run was seen completed: its lag from the producer's hand-off, and the wall-clock moment. */
        private record Seen(double lagMs, Instant at) {}

        /** Polls the run's JSON until it says completed; null when it did not within 30 s. */
        private static Seen follow(KeepAliveClient c, LiveRuns.Completion done) throws InterruptedException {
            long deadline = done.sentNanos() + TimeUnit.SECONDS.toNanos(30);
            while (!completed(c, "/api/v1/runs/" + done.runId())) {
                if (System.nanoTime() > deadline) {
                    return null;
                }
                Thread.sleep(2);
            }
            return new Seen((System.nanoTime() - done.sentNanos()) / 1e6, Instant.now());
        }

        /** The runs followed in one part of the phase: their lags and stage timings, and those never seen. */
        private static final class FollowedRuns {
            private final List<Double> lags = new ArrayList<>();
            private final List<VisibleStages.Followed> stages = new ArrayList<>();
            private int timeouts;

            void add(LiveRuns.Completion done, Seen seen) {
                if (seen == null) {
                    timeouts++;
                    return;
                }
                lags.add(seen.lagMs());
                stages.add(new VisibleStages.Followed(done, seen.at()));
            }

            double p99() {
                return Stats.percentile(values(), 99);
            }

            String summary() {
                double[] l = values();
                return String.format(
                        "%d runs followed, p50 %.0f ms, p99 %.0f ms, max %.0f ms%s",
                        l.length,
                        Stats.percentile(l, 50),
                        Stats.percentile(l, 99),
                        Stats.percentile(l, 100),
                        timeouts > 0 ? ", not visible within 30 s: " + timeouts : "");
            }

            private double[] values() {
                return lags.stream().mapToDouble(Double::doubleValue).toArray();
            }
        }

        private static boolean completed(KeepAliveClient c, String path) {
            try {
                KeepAliveClient.Response r = c.fetch(path);
                return r.status() == 200 && saysCompleted(JSON.readTree(r.body()));
            } catch (IOException notYet) {
                return false;
            }
        }

        /** Whether any {@code status} field of the JSON says completed, wherever the page's JSON puts it. */
        private static boolean saysCompleted(JsonNode node) {
            JsonNode status = node.get("status");
            if (status != null && status.isTextual() && status.asText().equalsIgnoreCase("completed")) {
                return true;
            }
            for (JsonNode child : node) {
                if (child.isContainerNode() && saysCompleted(child)) {
                    return true;
                }
            }
            return false;
        }

        /** One client cycling through the pages while ingest-service rebuilds the read models from the loaded events. */
        private void duringRebuild(Map<String, Supplier<String>> pages) throws Exception {
            CompletableFuture<Rebuild> rebuild = CompletableFuture.supplyAsync(() -> {
                try {
                    return Rebuild.post(agent.ingest, agent.token);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Map<String, List<Double>> latencies = new LinkedHashMap<>();
            Map<String, List<Integer>> failures = new LinkedHashMap<>();
            pages.keySet().forEach(name -> {
                latencies.put(name, new ArrayList<>());
                failures.put(name, new ArrayList<>());
            });
            try (KeepAliveClient c = new KeepAliveClient("127.0.0.1", queryPort)) {
                while (!rebuild.isDone()) {
                    for (Map.Entry<String, Supplier<String>> page : pages.entrySet()) {
                        long t0 = System.nanoTime();
                        int status;
                        try {
                            status = c.get(page.getValue().get());
                        } catch (IOException e) {
                            status = -1;
                        }
                        if (status == 200) {
                            latencies.get(page.getKey()).add((System.nanoTime() - t0) / 1e6);
                        } else {
                            failures.get(page.getKey()).add(status);
                        }
                    }
                }
            }
            Rebuild r = rebuild.get();
            report.line(
                    "pages: during POST /admin/rebuild (%.1f s, HTTP %d), one client over every page in turn:",
                    r.seconds(), r.status());
            double worst = 0;
            for (Map.Entry<String, List<Double>> e : latencies.entrySet()) {
                double[] l =
                        e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
                worst = Math.max(worst, Stats.percentile(l, 99));
                List<Integer> failed = failures.get(e.getKey());
                report.line(
                        "  %-22s %6d requests  p50 %8.2f ms  p99 %8.2f ms  max %8.2f ms%s",
                        e.getKey(),
                        l.length,
                        Stats.percentile(l, 50),
                        Stats.percentile(l, 99),
                        Stats.percentile(l, 100),
                        failed.isEmpty() ? "" : "  failed (HTTP status, -1: no answer): " + failed);
            }
            report.line(
                    "pages: worst p99 during the rebuild %.1f ms (target <= 100 ms: %s)",
                    worst, Report.verdict(worst <= 100));
        }

        /**
         * Per page, a fresh query-service: its first request, sent the moment readiness reports UP (polled every 5 ms),
         * with the live events still arriving.
         */
        private void firstRequests(Map<String, Supplier<String>> pages) throws Exception {
            report.line(
                    "pages: first request after a start, timed from readiness UP%s:",
                    live > 0 ? String.format(", %.0f events/s arriving", live) : "");
            double worst = 0;
            for (Map.Entry<String, Supplier<String>> page : pages.entrySet()) {
                try (QueryServiceProcess qs = QueryServiceProcess.start(
                        queryJar,
                        queryDb,
                        queryPort,
                        cacheModes().get(0),
                        logs.resolve("pages-query-service-cold.log"))) {
                    long up = qs.awaitReady(5, 180);
                    int status;
                    try (KeepAliveClient c = new KeepAliveClient("127.0.0.1", queryPort)) {
                        status = c.get(page.getValue().get());
                    }
                    double ms = (System.nanoTime() - up) / 1e6;
                    worst = Math.max(worst, ms);
                    report.line("  %-22s %8.1f ms (HTTP %d)", page.getKey(), ms, status);
                }
            }
            report.line(
                    "pages: worst first request %.1f ms (target <= 100 ms: %s)", worst, Report.verdict(worst <= 100));
        }

        /** {@code clients} keep-alive clients, each sending its next request when the last is answered. */
        private Phase closedLoop(Supplier<String> urls, int clients, int phaseSeconds) throws Exception {
            AtomicBoolean stop = new AtomicBoolean();
            List<List<Double>> perThread = new ArrayList<>();
            long[] errors = new long[clients];
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < clients; t++) {
                List<Double> lat = new ArrayList<>();
                perThread.add(lat);
                int id = t;
                threads.add(new Thread(() -> {
                    try (KeepAliveClient c = new KeepAliveClient("127.0.0.1", queryPort)) {
                        while (!stop.get()) {
                            String path = urls.get();
                            long t0 = System.nanoTime();
                            try {
                                if (c.get(path) == 200) {
                                    lat.add((System.nanoTime() - t0) / 1e6);
                                } else {
                                    errors[id]++;
                                }
                            } catch (IOException e) {
                                errors[id]++;
                            }
                        }
                    }
                }));
            }
            long[] cpu0 = {Cpu.ticks(current.pid()), Cpu.postgresTicks(pgPid)};
            long start = System.nanoTime();
            threads.forEach(Thread::start);
            Thread.sleep(TimeUnit.SECONDS.toMillis(phaseSeconds));
            stop.set(true);
            for (Thread th : threads) {
                th.join();
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            long[] cpu1 = {Cpu.ticks(current.pid()), Cpu.postgresTicks(pgPid)};
            double[] all = perThread.stream()
                    .flatMap(List::stream)
                    .mapToDouble(Double::doubleValue)
                    .sorted()
                    .toArray();
            return new Phase(
                    all,
                    elapsed,
                    Arrays.stream(errors).sum(),
                    Cpu.micros(cpu1[0] - cpu0[0]),
                    pgPid > 0 ? Cpu.micros(cpu1[1] - cpu0[1]) : Double.NaN);
        }
    }

    /** A closed-loop phase: sorted latencies, its length, failed requests, CPU µs of the service and of PostgreSQL. */
    private record Phase(
            double[] latenciesMs, double seconds, long errors, double serviceCpuMicros, double postgresCpuMicros) {

        double p(int percentile) {
            return Stats.percentile(latenciesMs, percentile);
        }

        double throughput() {
            return latenciesMs.length / seconds;
        }

        double serviceMicros() {
            return serviceCpuMicros / Math.max(1, latenciesMs.length);
        }

        double postgresMicros() {
            return postgresCpuMicros / Math.max(1, latenciesMs.length);
        }
    }

    /** CPU time of processes from /proc, in clock ticks (USER_HZ, 100 on Linux). */
    static final class Cpu {

        private static final double MICROS_PER_TICK = 10_000;

        private Cpu() {}

        static double micros(long ticks) {
            return ticks * MICROS_PER_TICK;
        }

        /** utime + stime of {@code pid}. */
        static long ticks(long pid) {
            long[] f = fields(pid);
            return f == null ? 0 : f[11] + f[12];
        }

        /** The postmaster's children (backends, live) plus what its ended children used. */
        static long postgresTicks(long postmaster) {
            if (postmaster <= 0) {
                return 0;
            }
            long[] own = fields(postmaster);
            long total = own == null ? 0 : own[13] + own[14];
            try (var dirs = Files.list(Path.of("/proc"))) {
                for (Path p : (Iterable<Path>) dirs::iterator) {
                    String name = p.getFileName().toString();
                    if (name.chars().allMatch(Character::isDigit)) {
                        long[] f = fields(Long.parseLong(name));
                        if (f != null && f[1] == postmaster) {
                            total += f[11] + f[12];
                        }
                    }
                }
            } catch (IOException e) {
                return total;
            }
            return total;
        }

        /** /proc/PID/stat after the command name: index 0 is the state, 1 the ppid, 11..14 utime, stime, cutime, cstime. */
        private static long[] fields(long pid) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] parts = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long[] out = new long[15];
                for (int i = 1; i < out.length; i++) {
                    out[i] = Long.parseLong(parts[i]);
                }
                return out;
            } catch (IOException | RuntimeException gone) {
                return null;
            }
        }
    }
}
