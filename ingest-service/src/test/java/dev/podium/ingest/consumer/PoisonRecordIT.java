package dev.podium.ingest.consumer;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.kafka.BoundedBytesDeserializer;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.dlq.DlqPublisher;
import dev.podium.ingest.store.RecordCopy;
import dev.podium.ingest.testing.ArmedCrashPoint;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/**
 * No record stops a partition: whatever a record holds, signed or not, it is refused with a reason, a bounded copy of it
 * is kept, and the next valid record of its partition is stored and its offset committed. A record too large after
 * decompression is refused before it is ever copied; one at which ingest processes died reading it is set aside.
 */
@QuarkusTest
class PoisonRecordIT {

    private static final EventCodec CODEC = new EventCodec();
    private static final String EVENTS = "podium.events";
    private static final String DLQ = "podium.events.dlq";
    private static final String ONE_MIB = Integer.toString(1024 * 1024);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ArmedCrashPoint crash;

    @Inject
    EventConsumer consumer;

    private Db db() {
        return new Db(dataSource);
    }

    @Test
    void aThreeMegabyteGzipRecordIsRefusedWithABoundedCopyAndTheNextRecordIsCommitted() throws Exception {
        TestAgent agent = TestAgent.register("poison");
        Envelope next = SampleEvents.runProgress(UUID.randomUUID(), agent.agentId(), 1, 1, 1, 10);
        byte[] big = padded(agent, 3_000_000, new Random(7));
        // random hex compresses to about half: the broker takes it only with a limit above 1 MiB
        Kafka.setTopicConfig(EVENTS, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(8 * 1024 * 1024));
        try {
            List<RecordMetadata> sent = Kafka.sendGzip(
                    List.of(agent.signedBytes(next.streamId(), big), agent.signed(next)), 8 * 1024 * 1024);
            assertNextIsCommitted(next, sent.get(1));
            assertBoundedRefusal(agent, sent.get(0), big, tooLarge(big));
        } finally {
            Kafka.setTopicConfig(EVENTS, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, ONE_MIB);
        }
    }

    @Test
    void aGzipDecompressionBombIsRefusedWithABoundedCopyAndTheNextRecordIsCommitted() throws Exception {
        refusesABomb("gzip", "bomb");
    }

    @Test
    void aZstdDecompressionBombIsRefusedWithABoundedCopyAndTheNextRecordIsCommitted() throws Exception {
        refusesABomb("zstd", "zstd-bomb");
    }

    /** 32 MB of one letter, signed: a few tens of KB on the wire, under the topic's default 1 MiB. */
    private void refusesABomb(String compression, String agentName) throws Exception {
        TestAgent agent = TestAgent.register(agentName);
        Envelope next = SampleEvents.runProgress(UUID.randomUUID(), agent.agentId(), 1, 1, 1, 10);
        byte[] bomb = padded(agent, 32_000_000, null);
        List<RecordMetadata> sent = Kafka.sendCompressed(
                compression, List.of(agent.signedBytes(next.streamId(), bomb), agent.signed(next)), 40 * 1024 * 1024);
        assertNextIsCommitted(next, sent.get(1));
        assertBoundedRefusal(agent, sent.get(0), bomb, tooLarge(bomb));
    }

    @Test
    void anUnsignedRecordWithAHugeKeyIsRefusedAndTheNextRecordIsCommitted() {
        TestAgent agent = TestAgent.register("huge-key");
        Envelope next = SampleEvents.runProgress(UUID.randomUUID(), agent.agentId(), 1, 1, 1, 10);
        ProducerRecord<byte[], byte[]> signedNext = agent.signed(next);
        byte[] key = new byte[BoundedBytesDeserializer.KEY_LIMIT * 8];
        // unsigned, on the partition the next record's key takes
        ProducerRecord<byte[], byte[]> hostile = new ProducerRecord<>(
                EVENTS,
                BuiltInPartitioner.partitionForKey(signedNext.key(), 12),
                key,
                "{}".getBytes(StandardCharsets.UTF_8));
        List<RecordMetadata> sent = Kafka.sendCompressed("gzip", List.of(hostile, signedNext), 4 * 1024 * 1024);
        RecordMetadata at = sent.get(0);
        assertThat(sent.get(1).partition()).isEqualTo(at.partition());
        assertNextIsCommitted(next, sent.get(1));
        assertThat(db().rows(
                                "SELECT reason FROM rejected_event WHERE kafka_partition = ? AND kafka_offset = ?",
                                at.partition(),
                                at.offset()))
                .containsExactly(List.of("key too large after decompression: " + key.length
                        + " bytes, over the limit of " + BoundedBytesDeserializer.KEY_LIMIT + " bytes"));
    }

    /**
     * Two processes died reading a record (as a record too large for ingest's heap after decompression makes them):
     * the ledger's row says so, and the next consumer reads one record at a time up to it, sets it aside and reads on.
     */
    @Test
    void aRecordAtWhichProcessesDiedTwiceIsSetAsideAndTheNextIsStored() {
        TestAgent agent = TestAgent.register("died-reading");
        UUID run = UUID.randomUUID();
        Envelope deadly = SampleEvents.runProgress(run, agent.agentId(), 1, 1, 1, 10);
        Envelope next = SampleEvents.runProgress(run, agent.agentId(), 2, 1, 2, 10);
        consumer.stop();
        try {
            long rowsBefore = (Long) db().one("SELECT coalesce(max(id), 0) FROM rejected_event");
            List<RecordMetadata> sent = Kafka.send(List.of(agent.signed(deadly), agent.signed(next)));
            RecordMetadata at = sent.get(0);
            db().execute("""
                    INSERT INTO consumer_read_position (group_id, topic, kafka_partition, next_offset, exact, clean,
                        owner, death_offset, deaths)
                    VALUES ('podium-ingest', ?, ?, ?, true, false, ?, ?, 1)
                    ON CONFLICT (group_id, topic, kafka_partition) DO UPDATE SET next_offset = excluded.next_offset,
                        exact = true, clean = false, owner = excluded.owner, death_offset = excluded.death_offset,
                        deaths = 1""", EVENTS, at.partition(), at.offset(), UUID.randomUUID(), at.offset());
            consumer.start();
            assertNextIsCommitted(next, sent.get(1));
            assertThat(stored(deadly)).isFalse();
            assertThat(db().rows(
                                    "SELECT reason, record IS NULL FROM rejected_event WHERE kafka_partition = ? AND kafka_offset = ?"
                                            + " AND topic = ? AND id > ?",
                                    at.partition(),
                                    at.offset(),
                                    EVENTS,
                                    rowsBefore))
                    .as("never read again, so nothing of it is kept")
                    .containsExactly(List.of(EventConsumer.DIED_READING, true));
        } finally {
            consumer.start();
        }
    }

    @Test
    void aDlqThatRefusesTheCopyNeverStopsThePartition() {
        TestAgent agent = TestAgent.register("dlq-refuses");
        Envelope next = SampleEvents.runProgress(UUID.randomUUID(), agent.agentId(), 1, 1, 1, 10);
        byte[] junk = "not an event".getBytes(StandardCharsets.UTF_8);
        Kafka.setTopicConfig(DLQ, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "200");
        try {
            List<RecordMetadata> sent =
                    Kafka.send(List.of(agent.signedBytes(next.streamId(), junk), agent.signed(next)));
            assertNextIsCommitted(next, sent.get(1));
            List<Object> row = db().rows(
                            """
                    SELECT reason, dlq_error FROM rejected_event WHERE key_id = ? AND kafka_partition = ?
                      AND kafka_offset = ?""",
                            agent.keyId(),
                            sent.get(0).partition(),
                            sent.get(0).offset())
                    .get(0);
            assertThat((String) row.get(0)).startsWith("invalid: $: malformed JSON");
            assertThat((String) row.get(1)).contains("RecordTooLargeException");
        } finally {
            Kafka.setTopicConfig(
                    DLQ,
                    TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                    TopicSetup.DLQ_CONFIGS.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG));
        }
    }

    @Test
    void offsetsStartingAgainInARecreatedTopicCountEveryRefusalAgain() {
        TestAgent agent = TestAgent.register("reset");
        List<ProducerRecord<byte[], byte[]>> hostile = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            hostile.add(agent.signedBytes(
                    "run/" + SampleEvents.uuid("reset-" + i), ("not an event " + i).getBytes(StandardCharsets.UTF_8)));
        }
        Map<String, String> configs = Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, ONE_MIB);
        try {
            for (int round = 1; round <= 2; round++) {
                // as when ingest starts against a new broker, or a topic recreated, with the same database
                consumer.stop();
                Kafka.recreate(EVENTS, 12, configs);
                consumer.start();
                Kafka.send(hostile);
                long expected = round * hostile.size();
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> db().count("SELECT count(*) FROM rejected_event WHERE key_id = ?", agent.keyId())
                                >= expected);
            }
            assertThat(db().count("SELECT count(*) FROM rejected_event WHERE key_id = ?", agent.keyId()))
                    .isEqualTo(2L * hostile.size());
            assertThat(db().count(
                                    "SELECT count(DISTINCT topic_id) FROM rejected_event WHERE key_id = ?",
                                    agent.keyId()))
                    .isEqualTo(2);
        } finally {
            // DLQ records of earlier incarnations name the same offsets as the records other tests send next
            Kafka.recreate(DLQ, 3, TopicSetup.DLQ_CONFIGS);
        }
    }

    @Test
    void aConsumerThatCannotMoveOnWhileRecordsWaitIsNotReady() {
        TestAgent agent = TestAgent.register("stalled");
        Envelope e = SampleEvents.runProgress(UUID.randomUUID(), agent.agentId(), 1, 1, 1, 10);
        crash.failAlways(CrashPoint.Stage.BEFORE_DB_COMMIT);
        try {
            Kafka.send(List.of(agent.signed(e)));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> given().get("/q/health/ready").statusCode() == 503);
            given().get("/q/health/ready").then().statusCode(503);
            assertThat(given().get("/q/health/ready")
                            .jsonPath()
                            .getBoolean("checks.find { it.name == 'kafka' }.data.'event-consumer-stalled'"))
                    .isTrue();
        } finally {
            crash.stopFailing();
        }
        await().atMost(Duration.ofSeconds(60))
                .until(() -> given().get("/q/health/ready").statusCode() == 200 && stored(e));
    }

    /** From the acknowledgement of the send: stored, and its offset committed for the ingest group. */
    private void assertNextIsCommitted(Envelope next, RecordMetadata at) {
        TopicPartition tp = new TopicPartition(at.topic(), at.partition());
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> stored(next) && Kafka.committed("podium-ingest", tp) > at.offset());
    }

    private void assertBoundedRefusal(TestAgent agent, RecordMetadata at, byte[] value, String reason)
            throws Exception {
        String sha =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value));
        List<Object> row =
                db().rows("""
                SELECT reason, record_bytes, length(record), record_truncated, record_sha256 FROM rejected_event
                WHERE key_id = ? AND kafka_partition = ? AND kafka_offset = ?""", agent.keyId(), at.partition(), at.offset()).get(0);
        assertThat(row).containsExactly(reason, value.length, RecordCopy.PREFIX_BYTES, true, sha);
        ConsumerRecord<byte[], byte[]> letter = Kafka.readAll(DLQ).stream()
                .filter(r -> sha.equals(header(r, DlqPublisher.SHA256)))
                .findFirst()
                .orElseThrow();
        assertThat(letter.value()).hasSize(RecordCopy.PREFIX_BYTES);
        assertThat(header(letter, DlqPublisher.ORIGINAL_BYTES)).isEqualTo(Integer.toString(value.length));
        assertThat(header(letter, DlqPublisher.REASON)).isEqualTo(reason);
    }

    /** A valid RunProgress of {@code agent} padded to {@code size} bytes with random hex, or one letter if no random. */
    private static byte[] padded(TestAgent agent, int size, Random random) {
        ObjectNode t = CODEC.toTree(SampleEvents.runProgress(UUID.randomUUID(), agent.agentId(), 1, 1, 1, 10));
        ((ObjectNode) t.get("payload")).put("padding", "");
        int base = bytes(t).length;
        StringBuilder pad = new StringBuilder(size - base);
        for (int i = 0; i < size - base; i++) {
            pad.append(random == null ? 'a' : Character.forDigit(random.nextInt(16), 16));
        }
        ((ObjectNode) t.get("payload")).put("padding", pad.toString());
        byte[] v = bytes(t);
        assertThat(v).hasSize(size);
        return v;
    }

    private static byte[] bytes(ObjectNode t) {
        try {
            return CODEC.mapper().writeValueAsBytes(t);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String tooLarge(byte[] value) {
        return "too large after decompression: " + value.length + " bytes, over the limit of " + ONE_MIB + " bytes";
    }

    private boolean stored(Envelope e) {
        return db().count("SELECT count(*) FROM event_store WHERE event_id = ?", e.eventId()) == 1;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
