package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.RunMeans;
import dev.podium.events.model.Statistics;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * Two ingest instances can write batches that create the same projection row at once (partitions of one topic, runs of
 * one key and device). The one that commits second gets a unique violation; that is a lost race, not a bad record.
 */
@QuarkusTest
class ConcurrentWriterIT {

    private static final String DEVICE = "intel-gaudi2";

    @Inject
    BatchProcessor processor;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aBatchThatLosesTheRaceForANewLeaderboardRowIsWrittenAgainAndRefusesNothing() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("race");
        ComparisonKey key = SampleEvents.referenceKey(7401);
        List<Double> values = List.of(100.0, 101.5, 99.0);
        List<Envelope> events =
                SampleEvents.completedRun(UUID.randomUUID(), agent.agentId(), DEVICE, key, Instant.now(), values);
        BatchProcessor.Checked batch = processor.check(records(agent, events));
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try (Connection other = dataSource.getConnection()) {
            // The other instance inserts the row this batch is about to create, and commits while the batch waits for
            // it.
            other.setAutoCommit(false);
            try (PreparedStatement ps = other.prepareStatement("""
                    INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean)
                    VALUES (?, ?, ?, 'measured', ?, ?, 'HIGHER_IS_BETTER', 1, 1, 1.0)""")) {
                ps.setString(1, key.id());
                ps.setString(2, SampleEvents.THROUGHPUT_METRIC);
                ps.setString(3, DEVICE);
                ps.setString(4, key.benchmark());
                ps.setString(5, SampleEvents.THROUGHPUT_UNIT);
                ps.executeUpdate();
            }
            Future<BatchProcessor.Result> written = writer.submit(() -> processor.process(batch));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> db.count(
                                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
                            > 0);
            other.commit();

            BatchProcessor.Result result = written.get(60, TimeUnit.SECONDS);
            assertThat(result.accepted()).isEqualTo(events.size());
            assertThat(result.rejected()).isZero();
        } finally {
            writer.shutdownNow();
        }
        RunMeans.Figures expected =
                RunMeans.of(List.of(Statistics.of(values).mean())).figures();
        assertThat(db.rows(
                        "SELECT runs, mean FROM proj_leaderboard_row WHERE key_id = ? AND device_id = ?",
                        key.id(),
                        DEVICE))
                .containsExactly(List.of(1, expected.mean()));
        assertThat(db.count("SELECT count(*) FROM rejected_event WHERE key_id = ?", agent.keyId()))
                .isZero();
    }

    /** The records as the consumer would poll them, at offsets no other test uses. */
    private static List<ConsumerRecord<byte[], byte[]>> records(TestAgent agent, List<Envelope> events) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        long offset = 1_000_000_000L + (System.nanoTime() & 0xffffff);
        for (Envelope e : events) {
            ProducerRecord<byte[], byte[]> p = agent.signed(e);
            out.add(new ConsumerRecord<>(
                    p.topic(),
                    0,
                    offset++,
                    System.currentTimeMillis(),
                    TimestampType.CREATE_TIME,
                    p.key().length,
                    p.value().length,
                    p.key(),
                    p.value(),
                    p.headers(),
                    Optional.empty()));
        }
        return out;
    }
}
