package dev.podium.reliability.fault;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.run.RunProgress;
import dev.podium.events.testing.SampleEvents;
import dev.podium.events.validate.DeviceReadings;
import dev.podium.events.validate.Limits;
import dev.podium.reliability.process.Ports;
import dev.podium.reliability.process.QueryProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * An enrolled agent plants one run with the most the contract lets it send (MetricSampled events of 10,000 samples
 * each, of every series kind, and thousands of RunProgress events with the longest message), then {@value #CLIENTS}
 * clients ask for its page, HTML and JSON, while a control client reads {@code /leaderboard} from the same
 * query-service. The leaderboard's p99 during the attack must stay within {@value #P99_FACTOR}x its p99 before, the
 * planted page must answer (2xx or 4xx, never a 5xx or nothing within {@link #PAGE_TIMEOUT}), a control run sent while
 * the run is ingested must be visible within max(2 s, 3x its quiet time), and ingest must stay ready.
 */
final class PlantedRunPageCase {

    static final int CLIENTS = 6;
    static final double P99_FACTOR = 3;
    static final Duration PAGE_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Each client asks again this long after its last request began (at once if that took longer): the attack is the
     * page's cost, not a request rate that would slow any page on two cores.
     */
    private static final long CLIENT_PACE_MS = 500;

    private static final int LEADERBOARD_FETCHES = 200;
    /** Fetches before the measured ones: query-service was just started, its code not yet compiled. */
    private static final int WARM_UP_FETCHES = 50;
    /** The longest the control client goes on waiting for the clients' second answers. */
    private static final Duration DURING_AT_MOST = Duration.ofMinutes(2);

    private static final int MOST_CONTROL_RUNS = 5;
    private static final String LONGEST_MESSAGE = "step of the planted run ".repeat(Limits.MAX_TEXT_CHARS / 24);

    private final Platform p;
    private final FaultCases cases;
    private final QueryOnDemand query;
    private final int seriesEvents;
    private final int progressEvents;

    /** A page's fetch: its status (0: no answer within {@link #PAGE_TIMEOUT}) and seconds. */
    private record Fetch(int status, double seconds) {}

    /** 100 series rows and 2,000 progress events in the ci tier, ten times that in the full one. */
    PlantedRunPageCase(Platform p, FaultCases cases, QueryOnDemand query, String tier) {
        this.p = p;
        this.cases = cases;
        this.query = query;
        int scale = tier.equals("full") ? 10 : 1;
        this.seriesEvents = 100 * scale;
        this.progressEvents = 2000 * scale;
    }

    CaseResult run(Map<String, String> figures) {
        Credentials attacker = cases.agent("planter");
        UUID run = UUID.randomUUID();
        int records = seriesEvents + progressEvents + 2;
        VolumeCheck check = new VolumeCheck();
        long t0 = System.nanoTime();
        try (ControlRuns controls = new ControlRuns(p, cases.agent("planted-control"))) {
            try (ReadinessWatch ready = new ReadinessWatch(p.ingest)) {
                double quiet = controls.quiet();
                p.produce(records, i -> attacker.signed(event(attacker, run, i)));
                var end = p.eventsEnd();
                check.controlRuns(quiet, controls.during(() -> !p.ingested(end), MOST_CONTROL_RUNS));
                check.awaitIngested(p, "the planted run");
                pages(check, query.get(), run);
                check.readiness(ready);
            }
            check.attacker(p, attacker, records);
            String fault = String.format(
                    "one run of %d MetricSampled events of %,d samples and %,d RunProgress events; %d clients on its"
                            + " page",
                    seriesEvents, Limits.MAX_ARRAY_ITEMS, progressEvents, CLIENTS);
            CaseResult r = check.result(
                    cases,
                    "planted-run-page",
                    fault,
                    controls,
                    Map.of(),
                    records + controls.ids().size(),
                    t0);
            figures.put(r.name(), check.figures());
            return r;
        }
    }

    /**
     * The leaderboard's p99 before and while the clients ask for the planted page, side by side. The second lasts at
     * least until every client has had two answers, so that it spans whole renders of the planted page.
     */
    private void pages(VolumeCheck check, QueryProcess q, UUID run) {
        new ControlClient(q).fetch(WARM_UP_FETCHES);
        ControlClient before = new ControlClient(q);
        before.fetch(LEADERBOARD_FETCHES);
        ControlClient during = new ControlClient(q);
        long deadline = System.nanoTime() + DURING_AT_MOST.toNanos();
        List<Fetch> planted = attackWhile(q, run, fetches -> {
            while ((during.ms.size() < LEADERBOARD_FETCHES || fetches.size() < 2 * CLIENTS)
                    && System.nanoTime() < deadline) {
                during.fetch(1);
            }
        });
        Map<Integer, Long> statuses = new TreeMap<>();
        planted.forEach(f -> statuses.merge(f.status(), 1L, Long::sum));
        check.figure(String.format(
                "leaderboard p99 %.0f ms before, %.0f ms during (bound %.0fx); planted page: %d fetches, statuses %s,"
                        + " slowest %.1f s",
                before.p99(),
                during.p99(),
                P99_FACTOR,
                planted.size(),
                statuses,
                planted.stream().mapToDouble(Fetch::seconds).max().orElse(0)));
        if (during.p99() > P99_FACTOR * before.p99()) {
            check.missedTime(String.format(
                    "the leaderboard's p99 was %.0f ms during the attack, over %.0fx its %.0f ms before",
                    during.p99(), P99_FACTOR, before.p99()));
        }
        long failed = planted.stream()
                .filter(f -> f.status() == 0 || f.status() >= 500)
                .count();
        if (failed > 0) {
            check.problem(failed + " of " + planted.size() + " fetches of the planted page answered 5xx or nothing"
                    + " within " + PAGE_TIMEOUT.toSeconds() + " s: " + statuses);
        }
        before.failures(check);
        during.failures(check);
    }

    /** The control client: fetches of {@code /leaderboard} one after another, each one's milliseconds. */
    private static final class ControlClient {

        private final QueryProcess q;
        private final List<Double> ms = new ArrayList<>();
        private int failed;

        ControlClient(QueryProcess q) {
            this.q = q;
        }

        void fetch(int n) {
            for (int i = 0; i < n; i++) {
                long t = System.nanoTime();
                int status = q.get("/leaderboard", PAGE_TIMEOUT).status();
                ms.add((System.nanoTime() - t) / 1e6);
                failed += status == 200 ? 0 : 1;
            }
        }

        double p99() {
            List<Double> sorted = ms.stream().sorted().toList();
            return sorted.get((int) Math.ceil(0.99 * sorted.size()) - 1);
        }

        void failures(VolumeCheck check) {
            if (failed > 0) {
                check.problem(failed + " of " + ms.size() + " fetches of /leaderboard did not answer 200");
            }
        }
    }

    /**
     * Runs {@code measure} (given the fetches so far) while the clients ask for the planted run's page and JSON in turn:
     * their fetches.
     */
    private static List<Fetch> attackWhile(QueryProcess q, UUID run, Consumer<List<Fetch>> measure) {
        List<Fetch> fetches = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        for (int c = 0; c < CLIENTS; c++) {
            int first = c;
            clients.submit(() -> {
                for (int k = first; !stop.get(); k++) {
                    long t = System.nanoTime();
                    String path = (k % 2 == 0 ? "/runs/" : "/api/v1/runs/") + run;
                    int status = q.get(path, PAGE_TIMEOUT).status();
                    long took = System.nanoTime() - t;
                    fetches.add(new Fetch(status, took / 1e9));
                    Ports.sleep(Math.max(0, CLIENT_PACE_MS - took / 1_000_000));
                }
            });
        }
        try {
            measure.accept(fetches);
        } finally {
            stop.set(true);
            clients.shutdown();
            awaitStopped(clients);
        }
        return List.copyOf(fetches);
    }

    private static void awaitStopped(ExecutorService clients) {
        try {
            clients.awaitTermination(PAGE_TIMEOUT.toSeconds() + CLIENT_PACE_MS / 1000 + 5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** RunStarted, the series events, the progress events, RunCompleted. */
    private Envelope event(Credentials attacker, UUID run, int i) {
        String agent = attacker.agentId();
        long seq = i + 1L;
        if (i == 0) {
            return SampleEvents.runStarted(
                    run, agent, SampleEvents.DEVICE_ID, SampleEvents.referenceKey(0), SampleEvents.AT);
        }
        if (i <= seriesEvents) {
            SeriesKind kind = SeriesKind.values()[(i - 1) % SeriesKind.values().length];
            return SampleEvents.metricSampled(run, agent, seq, kind, unit(kind), samples(i, kind));
        }
        if (i <= seriesEvents + progressEvents) {
            return SampleEvents.envelope(
                    StreamId.run(run),
                    seq,
                    agent,
                    SampleEvents.AT.plusSeconds(seq),
                    new RunProgress(run, 1, seq, seq + 1, "measure", LONGEST_MESSAGE));
        }
        return SampleEvents.runCompleted(run, agent, seq, List.of(500.0, 501.0, 502.0));
    }

    /** Values that vary, except where the kind has a physical range they fall outside (throttle bits, error counts). */
    private static List<Sample> samples(int event, SeriesKind kind) {
        List<Sample> samples = new ArrayList<>(Limits.MAX_ARRAY_ITEMS);
        for (int s = 0; s < Limits.MAX_ARRAY_ITEMS; s++) {
            long n = (long) event * Limits.MAX_ARRAY_ITEMS + s;
            double v = 40 + (n % 600) / 10.0;
            samples.add(new Sample(n / 10.0, DeviceReadings.plausible(kind, v) ? v : 0, 1, (int) (n % 8)));
        }
        return samples;
    }

    private static String unit(SeriesKind kind) {
        return kind == SeriesKind.STEP_THROUGHPUT ? SampleEvents.THROUGHPUT_UNIT : kind.unit();
    }
}
