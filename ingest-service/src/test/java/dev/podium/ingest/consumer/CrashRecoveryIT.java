package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.dlq.DlqPublisher;
import dev.podium.ingest.testing.ArmedCrashPoint;
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
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The consumer dies at a fixed point of a batch (its thread ends without committing anything more) and a new consumer
 * joins the group: every event is stored once, every refusal recorded once, nothing lost.
 */
@QuarkusTest
class CrashRecoveryIT {

    private static final int RUNS = 40;
    private static final int DUPLICATES = 6;
    private static final int BAD = 4;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ArmedCrashPoint crash;

    @Inject
    EventConsumer consumer;

    @ParameterizedTest
    @EnumSource(CrashPoint.Stage.class)
    void aCrashAtAnyPointLosesNothingAndDuplicatesNothing(CrashPoint.Stage stage) {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("crash");
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<Envelope> valid = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            valid.addAll(SampleEvents.completedRun(
                    UUID.randomUUID(),
                    agent.agentId(),
                    "nvidia-h100-sxm-80gb",
                    SampleEvents.referenceKey(i % 3),
                    Instant.now(),
                    List.of(100.0 + i, 101.0 + i, 102.0 + i)));
        }
        valid.forEach(e -> records.add(agent.signed(e)));
        for (int i = 0; i < DUPLICATES; i++) {
            records.add(agent.signed(valid.get(i * 7)));
        }
        for (int i = 0; i < BAD; i++) {
            records.add(agent.signedBytes(valid.get(i).streamId(), ("not json " + i).getBytes(StandardCharsets.UTF_8)));
        }

        crash.arm(stage);
        Kafka.send(records);
        // The simulated crash is an uncaught Error on the consumer thread: that is the point, not a test failure.
        await().dontCatchUncaughtExceptions()
                .atMost(Duration.ofSeconds(60))
                .until(() -> crash.fired() && !consumer.isRunning());

        consumer.start();
        await().dontCatchUncaughtExceptions()
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId())
                                == valid.size()
                        && db.count("SELECT count(*) FROM rejected_event WHERE key_id = ?", agent.keyId()) == BAD
                        && db.count(
                                        "SELECT count(*) FROM proj_result m JOIN proj_run r USING (run_id) WHERE r.agent_id = ?",
                                        agent.agentId())
                                == RUNS
                        && dlqOffsets(agent).size() == BAD);

        assertThat(db.count("SELECT count(DISTINCT event_id) FROM event_store WHERE writer = ?", agent.agentId()))
                .isEqualTo(valid.size());
        assertThat(db.count(
                        "SELECT count(*) FROM proj_run WHERE agent_id = ? AND status = 'completed'", agent.agentId()))
                .isEqualTo(RUNS);
        assertThat(db.count(
                        "SELECT count(*) FROM proj_run_series_head s JOIN proj_run r USING (run_id) WHERE r.agent_id = ?",
                        agent.agentId()))
                .isEqualTo(RUNS);
        assertThat(db.count(
                        "SELECT count(*) FROM rejected_event WHERE key_id = ? AND reason LIKE 'invalid: $: malformed JSON%'",
                        agent.keyId()))
                .isEqualTo(BAD);
        assertThat(consumer.isRunning()).isTrue();
    }

    @org.junit.jupiter.api.Test
    void aFailedBatchIsReadAgainFromTheCommittedOffsetsAndNothingIsSkipped() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("retry");
        List<Envelope> valid = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            valid.addAll(SampleEvents.completedRun(
                    UUID.randomUUID(),
                    agent.agentId(),
                    "intel-gaudi2",
                    SampleEvents.referenceKey(0),
                    Instant.now(),
                    List.of(1.0 + i, 2.0, 3.0)));
        }
        crash.failOnce(CrashPoint.Stage.BEFORE_OFFSET_COMMIT);
        Kafka.send(valid.stream().map(agent::signed).toList());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> crash.fired()
                        && db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId())
                                == valid.size()
                        && db.count(
                                        "SELECT count(*) FROM proj_result m JOIN proj_run r USING (run_id) WHERE r.agent_id = ?",
                                        agent.agentId())
                                == 10);
        assertThat(consumer.isRunning()).isTrue();
    }

    /**
     * A backlog makes the consumer pipeline full batches: the second batch fails after its database commit, while the
     * third is polled and checked. Both are read again; every event is stored once, and per partition in offset order.
     */
    @org.junit.jupiter.api.Test
    void aBatchFailingWhileTheNextIsInFlightIsReadAgainAndOrderIsKept() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("pipeline");
        List<Envelope> valid = new ArrayList<>();
        for (int i = 0; i < 700; i++) {
            valid.addAll(SampleEvents.completedRun(
                    UUID.randomUUID(),
                    agent.agentId(),
                    "amd-mi300x",
                    SampleEvents.referenceKey(i % 3),
                    Instant.now(),
                    List.of(10.0 + i, 11.0, 12.0)));
        }
        consumer.stop();
        Kafka.send(valid.stream().map(agent::signed).toList());
        crash.failOnce(CrashPoint.Stage.BEFORE_OFFSET_COMMIT, 1);
        consumer.start();
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> crash.fired()
                        && db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId())
                                == valid.size()
                        && db.count(
                                        "SELECT count(*) FROM proj_run WHERE agent_id = ? AND status = 'completed'",
                                        agent.agentId())
                                == 700);

        assertThat(db.count("SELECT count(DISTINCT event_id) FROM event_store WHERE writer = ?", agent.agentId()))
                .isEqualTo(valid.size());
        assertThat(db.count(
                        "SELECT count(*) FROM proj_result m JOIN proj_run r USING (run_id) WHERE r.agent_id = ?",
                        agent.agentId()))
                .isEqualTo(700);
        // Positions follow offsets within each partition: no batch overtook the one before it.
        assertThat(db.count("""
                SELECT count(*) FROM (SELECT position, lag(position) OVER (PARTITION BY kafka_partition ORDER BY kafka_offset)
                                      AS before FROM event_store WHERE writer = ?) AS s
                WHERE position < before""", agent.agentId())).isZero();
        assertThat(consumer.isRunning()).isTrue();
    }

    @org.junit.jupiter.api.Test
    void aRecordTheDatabaseRefusesIsDeadLetteredAndItsNeighboursAreStored() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("dataerror");
        List<Envelope> valid = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            valid.addAll(SampleEvents.completedRun(
                    UUID.randomUUID(),
                    agent.agentId(),
                    "intel-gaudi2",
                    SampleEvents.referenceKey(0),
                    Instant.now(),
                    List.of(1.0 + i, 2.0, 3.0)));
        }
        // The whole batch fails, then the first record retried alone fails too: only that one may be refused.
        crash.dataErrors(CrashPoint.Stage.BEFORE_DB_COMMIT, 2);
        Kafka.send(valid.stream().map(agent::signed).toList());
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> crash.fired()
                        && db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId())
                                == valid.size() - 1
                        && db.count("SELECT count(*) FROM rejected_event WHERE key_id = ?", agent.keyId()) == 1
                        && dlqOffsets(agent).size() == 1);
        assertThat(db.one("SELECT reason FROM rejected_event WHERE key_id = ?", agent.keyId()))
                .isEqualTo("invalid: cannot be stored (SQLSTATE 22P02)");
        assertThat(consumer.isRunning()).isTrue();
    }

    @AfterEach
    void consumerRunsAgain() {
        crash.arm(null);
        crash.failOnce(null);
        crash.dataErrors(null, 0);
        consumer.start();
    }

    /** Distinct source offsets of this agent's records on the DLQ (the DLQ may hold a record twice after a crash). */
    private static Set<String> dlqOffsets(TestAgent agent) {
        List<ConsumerRecord<byte[], byte[]>> all = Kafka.readAll("podium.events.dlq");
        return all.stream()
                .filter(r -> r.headers().lastHeader("podium-key-id") != null
                        && agent.keyId()
                                .equals(new String(
                                        r.headers().lastHeader("podium-key-id").value(), StandardCharsets.UTF_8)))
                .map(r -> new String(
                                r.headers().lastHeader(DlqPublisher.PARTITION).value(), StandardCharsets.UTF_8) + "@"
                        + new String(r.headers().lastHeader(DlqPublisher.OFFSET).value(), StandardCharsets.UTF_8))
                .collect(Collectors.toSet());
    }
}
