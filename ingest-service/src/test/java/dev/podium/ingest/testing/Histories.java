package dev.podium.ingest.testing;

import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.testing.SampleEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToDoubleFunction;

/** Histories sent through Kafka by a signed agent: one completed run a day, with a small wobble around given levels. */
public final class Histories {

    private static final AtomicInteger KEYS = new AtomicInteger(700);
    private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");

    private Histories() {}

    /** A comparison key no other test uses. */
    public static ComparisonKey freshKey() {
        return SampleEvents.referenceKey(KEYS.incrementAndGet());
    }

    /** {@code count} completed runs of {@code key}, run i around {@code level(i)}; waits until they are stored. */
    public static List<UUID> send(Db db, TestAgent agent, ComparisonKey key, int count, IntToDoubleFunction level) {
        return send(db, agent, key, 0, count, level);
    }

    /** As {@link #send(Db, TestAgent, ComparisonKey, int, IntToDoubleFunction)}, from day {@code firstDay} on. */
    public static List<UUID> send(
            Db db, TestAgent agent, ComparisonKey key, int firstDay, int count, IntToDoubleFunction level) {
        List<UUID> runs = new ArrayList<>();
        List<Envelope> events = new ArrayList<>();
        for (int i = firstDay; i < firstDay + count; i++) {
            UUID run = UUID.randomUUID();
            runs.add(run);
            double m = level.applyAsDouble(i);
            double wobble = m * 0.002 * Math.sin(i * 1.7);
            events.addAll(SampleEvents.completedRun(
                    run,
                    agent.agentId(),
                    SampleEvents.DEVICE_ID,
                    key,
                    T0.plus(Duration.ofDays(i)),
                    List.of(m + wobble - m * 0.001, m + wobble, m + wobble + m * 0.001)));
        }
        sendSigned(db, agent, events);
        return runs;
    }

    /** {@code events} signed by {@code agent} and sent through Kafka; waits until they are stored. */
    public static void sendSigned(Db db, TestAgent agent, List<Envelope> events) {
        long before = db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId());
        Kafka.send(events.stream().map(agent::signed).toList());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId())
                        == before + events.size());
    }
}
