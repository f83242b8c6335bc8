package dev.podium.reliability.fault;

import dev.podium.events.Envelope;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.testing.SampleEvents;
import dev.podium.events.validate.Limits;
import dev.podium.reliability.process.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * An enrolled agent with a large run (POWER samples, {@value #SAMPLES_PER_EVENT} an event) that then sends one more
 * sample every {@value #EVERY_MS} ms while control runs are sent: each control run must be visible within max(2 s, 3x
 * its quiet time, measured once the large run is stored and before the trickle), and ingest must stay ready. What a
 * batch costs must depend on what it brings, not on what the run already holds.
 */
final class SampleTrickleCase {

    static final int SAMPLES_PER_EVENT = Limits.MAX_ARRAY_ITEMS;
    static final long EVERY_MS = 250;
    private static final int CONTROL_RUNS = 3;
    /** Samples of the trickle sent before the first control run: the attack is under way. */
    private static final int TRICKLED_FIRST = 4;

    private final Platform p;
    private final FaultCases cases;
    private final int events;
    private final AtomicInteger trickled = new AtomicInteger();

    /**
     * 400,000 stored samples in the ci tier, 4,000,000 in the full one: at 200,000 a control run took 1.5-3.6 s beside
     * its 0.2-0.6 s quiet (2 cores, shared), a slowdown the 2 s floor hid in one run of two.
     */
    SampleTrickleCase(Platform p, FaultCases cases, String tier) {
        this.p = p;
        this.cases = cases;
        this.events = tier.equals("full") ? 400 : 40;
    }

    CaseResult run(Map<String, String> figures) {
        Credentials attacker = cases.agent("trickler");
        UUID run = UUID.randomUUID();
        VolumeCheck check = new VolumeCheck();
        long t0 = System.nanoTime();
        p.produce(events + 1, i -> attacker.signed(event(attacker, run, i)));
        check.awaitIngested(p, "the large run");
        try (ControlRuns controls = new ControlRuns(p, cases.agent("trickle-control"))) {
            try (ReadinessWatch ready = new ReadinessWatch(p.ingest)) {
                double quiet = controls.quiet();
                List<Double> during = trickling(attacker, run, () -> controls.during(() -> true, CONTROL_RUNS));
                check.controlRuns(quiet, during);
                check.readiness(ready);
            }
            check.attacker(p, attacker, events + 1 + trickled.get());
            String fault = String.format(
                    "a run of %,d POWER samples, then one more every %d ms (%d in all) while control runs are sent",
                    events * SAMPLES_PER_EVENT, EVERY_MS, trickled.get());
            CaseResult r = check.result(
                    cases,
                    "sample-trickle",
                    fault,
                    controls,
                    Map.of(),
                    events + 1 + trickled.get() + controls.ids().size(),
                    t0);
            figures.put(r.name(), check.figures());
            return r;
        }
    }

    /** Runs {@code during} while the attacker sends one sample every {@value #EVERY_MS} ms, from its own producer. */
    private <T> T trickling(Credentials attacker, UUID run, Supplier<T> during) {
        try (KafkaProducer<byte[], byte[]> producer = p.producer()) {
            ScheduledExecutorService every = Executors.newSingleThreadScheduledExecutor();
            try {
                every.scheduleAtFixedRate(
                        () -> {
                            producer.send(attacker.signed(trickle(attacker, run, trickled.get())));
                            trickled.incrementAndGet();
                        },
                        0,
                        EVERY_MS,
                        TimeUnit.MILLISECONDS);
                Waits.until(
                        () -> trickled.get() >= TRICKLED_FIRST,
                        System.nanoTime() + Duration.ofSeconds(30).toNanos(),
                        Duration.ofMillis(50));
                return during.get();
            } finally {
                // a periodic task runs no more once its executor is shut down; the one under way ends first
                every.shutdown();
                awaitStopped(every);
            }
        }
    }

    private static void awaitStopped(ScheduledExecutorService every) {
        try {
            every.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** RunStarted, then {@link #events} MetricSampled of POWER. */
    private Envelope event(Credentials attacker, UUID run, int i) {
        if (i == 0) {
            return SampleEvents.runStarted(
                    run, attacker.agentId(), SampleEvents.DEVICE_ID, SampleEvents.referenceKey(0), SampleEvents.AT);
        }
        List<Sample> samples = new ArrayList<>(SAMPLES_PER_EVENT);
        for (int s = 0; s < SAMPLES_PER_EVENT; s++) {
            samples.add(power((i - 1L) * SAMPLES_PER_EVENT + s));
        }
        return SampleEvents.metricSampled(run, attacker.agentId(), i + 1, SeriesKind.POWER, "W", samples);
    }

    /** The {@code n}th sample of the trickle, one per event, after the large run's. */
    private Envelope trickle(Credentials attacker, UUID run, int n) {
        long seq = events + 2L + n;
        return SampleEvents.metricSampled(
                run,
                attacker.agentId(),
                seq,
                SeriesKind.POWER,
                "W",
                List.of(power((long) events * SAMPLES_PER_EVENT + n)));
    }

    /** A sample of a device's power draw, ten a second, eight devices. */
    private static Sample power(long n) {
        return new Sample(n / 10.0, 300 + (n % 400) + 0.25, 1, (int) (n % 8));
    }
}
