package dev.podium.reliability.fault;

import dev.podium.events.Envelope;
import dev.podium.reliability.process.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Normal runs of an enrolled agent, as the other cases make them ({@link Workload}), each timed from its first send until
 * its run is completed in {@code proj_run}, the row its pages read (written in the transaction that stores its events).
 * One producer stays connected for all of them, so a time is ingest's, not a new connection's.
 */
final class ControlRuns implements AutoCloseable {

    /** What a control run may always take; beyond it, {@value #QUIET_FACTOR} times its quiet time. */
    static final double FLOOR_SECONDS = 2;

    static final double QUIET_FACTOR = 3;
    private static final int QUIET_RUNS = 3;
    /** A run not visible by then is reported as never visible. */
    private static final Duration GIVE_UP = Duration.ofMinutes(3);

    private static final Duration POLL = Duration.ofMillis(20);

    private final Platform p;
    private final Credentials key;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Set<String> ids = new HashSet<>();
    private int runs;

    ControlRuns(Platform p, Credentials key) {
        this.p = p;
        this.key = key;
        this.producer = p.producer();
    }

    static double bound(double quiet) {
        return Math.max(FLOOR_SECONDS, QUIET_FACTOR * quiet);
    }

    /** The median of {@value #QUIET_RUNS} runs sent one after another, before the attack. */
    double quiet() {
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < QUIET_RUNS; i++) {
            times.add(visibleSeconds());
        }
        return times.stream().sorted().toList().get(QUIET_RUNS / 2);
    }

    /** Runs sent one after another while {@code attackGoesOn} holds, at least one and at most {@code most}. */
    List<Double> during(BooleanSupplier attackGoesOn, int most) {
        List<Double> times = new ArrayList<>();
        do {
            times.add(visibleSeconds());
        } while (times.size() < most && attackGoesOn.getAsBoolean());
        return times;
    }

    /** One run's seconds from its first send to visible; infinite when it was not visible after {@link #GIVE_UP}. */
    double visibleSeconds() {
        List<Envelope> run = Workload.events(key.agentId(), "control-" + runs++, Workload.RUN_LENGTH);
        String stream = run.get(0).streamId();
        long t0 = System.nanoTime();
        for (Envelope e : run) {
            producer.send(key.signed(e));
            ids.add(e.eventId().toString());
        }
        producer.flush();
        boolean visible = Waits.until(
                () -> p.store.count(
                                "SELECT count(*) FROM proj_run WHERE stream_id = ? AND status = 'completed'", stream)
                        == 1,
                t0 + GIVE_UP.toNanos(),
                POLL);
        return visible ? (System.nanoTime() - t0) / 1e9 : Double.POSITIVE_INFINITY;
    }

    /** The event ids of every run sent. */
    Set<String> ids() {
        return Set.copyOf(ids);
    }

    Credentials key() {
        return key;
    }

    @Override
    public void close() {
        producer.close();
    }
}
