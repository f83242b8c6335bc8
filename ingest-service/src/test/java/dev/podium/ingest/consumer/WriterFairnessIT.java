package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * One agent's backlog in a partition does not hold back another agent's run behind it: ingest reads ahead past the
 * backlog and writes each batch fair between writers. Without that, a partition is written in offset order and the run
 * behind the backlog is stored only after all of it.
 */
@QuarkusTest
class WriterFairnessIT {

    private static final int BACKLOG = 1_800;

    @Inject
    EventConsumer consumer;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aRunBehindAnotherAgentsBacklogInItsPartitionIsStoredBeforeTheBacklogEnds() {
        Db db = new Db(dataSource);
        TestAgent flood = TestAgent.register("backlog");
        TestAgent control = TestAgent.register("behind-backlog");
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        UUID floodRun = UUID.randomUUID();
        for (int i = 1; i <= BACKLOG; i++) {
            records.add(onPartitionZero(
                    flood.signed(SampleEvents.runProgress(floodRun, flood.agentId(), i, 1, i, BACKLOG))));
        }
        List<Envelope> controlRun = SampleEvents.completedRun(
                UUID.randomUUID(),
                control.agentId(),
                "intel-gaudi2",
                SampleEvents.referenceKey(7_501),
                Instant.now(),
                List.of(100.0, 101.0, 99.0));
        controlRun.forEach(e -> records.add(onPartitionZero(control.signed(e))));
        // All of it is in the partition before ingest reads any: the backlog is in front of the run, as under a flood.
        consumer.stop();
        try {
            Kafka.send(records);
        } finally {
            consumer.start();
        }

        await().atMost(Duration.ofSeconds(120))
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE writer = ?", control.agentId())
                                == controlRun.size()
                        && db.count("SELECT count(*) FROM event_store WHERE writer = ?", flood.agentId()) == BACKLOG);
        // Read from the rows' transactions once all is stored, not from what a poll of the table happened to see: the
        // partition's batches commit one after another, so a later transaction has a later id.
        long backlogStoredWithOrBeforeRun = db.count("""
                SELECT count(*) FROM event_store WHERE writer = ? AND xmin::text::bigint <= (
                    SELECT max(xmin::text::bigint) FROM event_store WHERE writer = ?)""", flood.agentId(), control.agentId());
        assertThat(backlogStoredWithOrBeforeRun)
                .as("backlog records stored in or before the transaction that stored the run behind them")
                .isLessThan(BACKLOG);
    }

    private static ProducerRecord<byte[], byte[]> onPartitionZero(ProducerRecord<byte[], byte[]> r) {
        return new ProducerRecord<>(r.topic(), 0, r.key(), r.value(), r.headers());
    }
}
