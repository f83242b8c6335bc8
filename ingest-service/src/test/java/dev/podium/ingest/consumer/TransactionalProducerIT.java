package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Records of a Kafka transaction are stored when it commits, never when it aborts. */
@QuarkusTest
class TransactionalProducerIT {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void anAbortedTransactionsRecordsAreNeverStoredAndACommittedOnesAre() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("importer");
        // One stream, so one partition, in this order: the aborted record, the committed one, the plain one.
        UUID boot = UUID.randomUUID();
        StreamId stream = StreamId.agent(agent.agentId(), boot);
        Envelope committed = onStream(agent, stream, boot, 1);
        Envelope plain = onStream(agent, stream, boot, 2);
        Envelope aborted = onStream(agent, stream, boot, 3);
        try (KafkaProducer<byte[], byte[]> producer = transactional()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(agent.signed(aborted));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(agent.signed(committed));
            producer.commitTransaction();
        }
        // After both transactions in the same partition: once it is stored, the consumer has read past them.
        Kafka.send(List.of(agent.signed(plain)));
        await().atMost(Duration.ofSeconds(30)).until(() -> stored(db, plain) && stored(db, committed));
        assertThat(stored(db, aborted)).isFalse();
        assertThat(db.count(
                        "SELECT count(*) FROM rejected_event WHERE event_id = ?",
                        aborted.eventId().toString()))
                .isZero();
    }

    /** An AgentRegistered of the stream's own boot: identity binding refuses one that names another boot. */
    private static Envelope onStream(TestAgent agent, StreamId stream, UUID boot, long seq) {
        return Envelope.of(
                UUID.randomUUID(),
                stream,
                seq,
                agent.agentId(),
                Instant.now(),
                SampleEvents.agentRegistered(agent.agentId(), boot, "intel-gaudi2", Instant.now())
                        .payload());
    }

    private static boolean stored(Db db, Envelope e) {
        return db.count("SELECT count(*) FROM event_store WHERE event_id = ?", e.eventId()) == 1;
    }

    private static KafkaProducer<byte[], byte[]> transactional() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Kafka.bootstrap());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "test-importer-" + UUID.randomUUID());
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
