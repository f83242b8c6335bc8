package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.dlq.DlqPublisher;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

/**
 * 10,000 signed records through the in-JVM broker: 5% exact duplicates, 1% malformed or forged, a few conflicts. The
 * event store, rejected_event, the DLQ and the projections must account for every one of them exactly.
 */
@QuarkusTest
class IngestPipelineIT {

    private static final int TOTAL = 10_000;
    private static final int DUPLICATES = 500;
    private static final int BAD = 100;
    private static final int CONFLICTS = 6;

    @Inject
    AgroalDataSource dataSource;

    record Sent(ProducerRecord<byte[], byte[]> record, String expect, String reasonPrefix) {}

    @Test
    void tenThousandEventsAreStoredExactlyOnceAndEveryBadOneIsDeadLettered() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("bulk");
        String benchmark = "bulk-" + UUID.randomUUID().toString().substring(0, 8);
        ComparisonKey key = new ComparisonKey(
                benchmark,
                "1",
                "training",
                "m",
                "fp32",
                32,
                1,
                128,
                new TreeMap<>(Map.of("dataloader_num_workers", "0")));
        Random random = new Random(42);

        int unique = TOTAL - DUPLICATES - BAD - CONFLICTS;
        List<Sent> originals = new ArrayList<>();
        Envelope registered =
                SampleEvents.agentRegistered(agent.agentId(), UUID.randomUUID(), "intel-gaudi2", Instant.now());
        originals.add(new Sent(agent.signed(registered), "stored", null));
        int runs = (unique - 1) / 3;
        List<List<Envelope>> runStreams = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            // within 10% of each other: every run passes its cv check and counts on the leaderboard
            List<Double> values = List.of(
                    500 + random.nextDouble() * 50, 500 + random.nextDouble() * 50, 500 + random.nextDouble() * 50);
            List<Envelope> run = SampleEvents.completedRun(
                    UUID.randomUUID(), agent.agentId(), "intel-gaudi2", key, Instant.now(), values);
            runStreams.add(run);
            run.forEach(e -> originals.add(new Sent(agent.signed(e), "stored", null)));
        }
        assertThat(originals).hasSize(unique);

        // Bad records and conflicts are spread through the stream; a duplicate always follows its original.
        List<Sent> sequence = new ArrayList<>(originals);
        for (int i = 0; i < DUPLICATES; i++) {
            int at = 1 + random.nextInt(sequence.size() - 1);
            Sent original = sequence.subList(0, at).stream()
                    .filter(s -> s.expect().equals("stored"))
                    .skip(random.nextInt(Math.max(1, at / 2)))
                    .findFirst()
                    .orElse(originals.get(0));
            sequence.add(at, new Sent(original.record(), "duplicate", null));
        }
        for (int i = 0; i < BAD; i++) {
            sequence.add(random.nextInt(sequence.size()), bad(i, agent, runStreams.get(random.nextInt(runs))));
        }
        for (int i = 0; i < CONFLICTS; i++) {
            List<Envelope> run = runStreams.get(runs - 1 - i);
            Envelope completed = run.get(2);
            RunCompleted rc = (RunCompleted) completed.payload();
            Envelope conflicting;
            if (i % 2 == 0) {
                // the same event id, other content (a different seq)
                conflicting = new Envelope(
                        completed.eventId(),
                        completed.type(),
                        1,
                        completed.streamId(),
                        4,
                        agent.agentId(),
                        completed.occurredAt(),
                        completed.payload());
            } else {
                // the same stream and seq, another event id and other values
                conflicting = Envelope.of(
                        UUID.randomUUID(),
                        StreamId.run(rc.runId()),
                        3,
                        agent.agentId(),
                        completed.occurredAt(),
                        SampleEvents.runCompleted(rc.runId(), agent.agentId(), 3, List.of(1.0, 2.0, 3.0))
                                .payload());
            }
            sequence.add(new Sent(agent.signed(conflicting), "conflict", "conflict:"));
        }
        assertThat(sequence).hasSize(TOTAL);

        long started = System.nanoTime();
        List<RecordMetadata> sent =
                Kafka.send(sequence.stream().map(Sent::record).toList());
        double producedIn = (System.nanoTime() - started) / 1e9;
        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId()) == unique
                        && db.count(
                                        "SELECT count(*) FROM rejected_event WHERE key_id = ? OR key_id LIKE 'pk_unknown%'",
                                        agent.keyId())
                                >= BAD + CONFLICTS);
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf(
                "INGEST THROUGHPUT: %d records in %.2f s = %.0f events/s (producing them took %.2f s of that)%n",
                TOTAL, seconds, TOTAL / seconds, producedIn);

        // The event store holds exactly the unique valid events, each once.
        assertThat(db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId()))
                .isEqualTo(unique);
        Set<String> storedIds =
                db.rows("SELECT event_id::text FROM event_store WHERE writer = ?", agent.agentId()).stream()
                        .map(r -> (String) r.get(0))
                        .collect(Collectors.toSet());
        Set<String> expectedIds = new HashSet<>();
        expectedIds.add(registered.eventId().toString());
        runStreams.forEach(run -> run.forEach(e -> expectedIds.add(e.eventId().toString())));
        assertThat(storedIds).isEqualTo(expectedIds);

        // rejected_event and the DLQ hold exactly the bad and conflicting records, once per source offset, with
        // reasons.
        Map<String, String> expectedRejects = new HashMap<>();
        for (int i = 0; i < sequence.size(); i++) {
            Sent s = sequence.get(i);
            if (s.reasonPrefix() != null) {
                expectedRejects.put(sent.get(i).partition() + "@" + sent.get(i).offset(), s.reasonPrefix());
            }
        }
        assertThat(expectedRejects).hasSize(BAD + CONFLICTS);
        Map<String, String> rejected = new HashMap<>();
        for (List<Object> row : db.rows("""
                SELECT kafka_partition || '@' || kafka_offset, reason FROM rejected_event
                WHERE key_id = ? OR key_id LIKE 'pk_unknown%'""", agent.keyId())) {
            assertThat(rejected.put((String) row.get(0), (String) row.get(1)))
                    .as("one row per offset")
                    .isNull();
        }
        rejected.keySet().retainAll(expectedRejects.keySet());
        assertThat(rejected.keySet()).isEqualTo(expectedRejects.keySet());
        expectedRejects.forEach(
                (where, prefix) -> assertThat(rejected.get(where)).startsWith(prefix));

        Map<String, String> dlq = new HashMap<>();
        int dlqRecords = 0;
        for (ConsumerRecord<byte[], byte[]> r : Kafka.readAll("podium.events.dlq")) {
            String where = header(r, DlqPublisher.PARTITION) + "@" + header(r, DlqPublisher.OFFSET);
            if (expectedRejects.containsKey(where) && "podium.events".equals(header(r, DlqPublisher.TOPIC))) {
                dlq.put(where, header(r, DlqPublisher.REASON));
                dlqRecords++;
            }
        }
        assertThat(dlq).isEqualTo(rejected);
        assertThat(dlqRecords).as("no crash here, so no DLQ record twice").isEqualTo(BAD + CONFLICTS);

        // The projections agree with the events.
        assertThat(db.count(
                        "SELECT count(*) FROM proj_run WHERE agent_id = ? AND status = 'completed'", agent.agentId()))
                .isEqualTo(runs);
        assertThat(db.count(
                        "SELECT count(*) FROM proj_result m JOIN proj_run r USING (run_id) WHERE r.agent_id = ?",
                        agent.agentId()))
                .isEqualTo(runs);
        assertThat(db.count(
                        "SELECT count(*) FROM proj_run_series_head s JOIN proj_run r USING (run_id) WHERE r.agent_id = ?",
                        agent.agentId()))
                .isEqualTo(runs);
        assertThat(db.count(
                        "SELECT coalesce(sum(runs), 0) FROM proj_leaderboard_row WHERE benchmark = ? AND source = 'measured'",
                        benchmark))
                .isEqualTo(runs);
        double expectedMean = runStreams.stream()
                .mapToDouble(run -> ((RunCompleted) run.get(2).payload())
                        .metrics()
                        .get(0)
                        .statistics()
                        .mean())
                .average()
                .orElseThrow();
        assertThat((Double) db.one("SELECT mean FROM proj_leaderboard_row WHERE benchmark = ?", benchmark))
                .isCloseTo(expectedMean, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(db.count("SELECT count(*) FROM proj_agent WHERE agent_id = ?", agent.agentId()))
                .isEqualTo(1);
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** One of four kinds of bad record: malformed JSON, tampered bytes, an unknown key, a rule broken. */
    private static Sent bad(int i, TestAgent agent, List<Envelope> run) {
        Envelope started = run.get(0);
        String stream = started.streamId();
        switch (i % 4) {
            case 0 -> {
                byte[] value =
                        ("{\"event_id\": \"" + UUID.randomUUID() + "\", \"type\": ").getBytes(StandardCharsets.UTF_8);
                return new Sent(agent.signedBytes(stream, value), "rejected", "invalid: $: malformed JSON");
            }
            case 1 -> {
                Envelope e = SampleEvents.runProgress(
                        ((dev.podium.events.run.RunEvent) started.payload()).runId(),
                        agent.agentId(),
                        10 + i,
                        1,
                        1,
                        10);
                byte[] value = agent.encode(e);
                String signature = EventSigner.sign(value, EventSigner.secretBytes(agent.secret()));
                value[value.length / 2] ^= 1;
                return new Sent(TestAgent.record(stream, value, agent.keyId(), signature), "rejected", "forged:");
            }
            case 2 -> {
                byte[] value = agent.encode(SampleEvents.runProgress(
                        ((dev.podium.events.run.RunEvent) started.payload()).runId(),
                        agent.agentId(),
                        10 + i,
                        1,
                        1,
                        10));
                return new Sent(
                        TestAgent.record(
                                stream,
                                value,
                                "pk_unknown" + i,
                                EventSigner.sign(value, EventSigner.secretBytes(EventSigner.newSecret()))),
                        "rejected",
                        "forged: unknown key");
            }
            default -> {
                String json = new String(
                                agent.encode(SampleEvents.runProgress(
                                        ((dev.podium.events.run.RunEvent) started.payload()).runId(),
                                        agent.agentId(),
                                        10 + i,
                                        1,
                                        1,
                                        10)),
                                StandardCharsets.UTF_8)
                        .replace("\"total_steps\":10", "\"total_steps\":-10");
                return new Sent(
                        agent.signedBytes(stream, json.getBytes(StandardCharsets.UTF_8)),
                        "rejected",
                        "invalid: payload.total_steps");
            }
        }
    }
}
