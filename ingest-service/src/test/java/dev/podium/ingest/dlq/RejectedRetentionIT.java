package dev.podium.ingest.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.ingest.consumer.TopicSetup;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

/** Refusals cost bounded room: rejected_event and the DLQ keep them for a while, their counts for good. */
@QuarkusTest
class RejectedRetentionIT {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RejectedRetention retention;

    @Test
    void refusalsAreCountedPerReasonAndKnownKeyAndTheCountsOutliveTheRows() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("counted");
        String stranger = "pk_" + "0".repeat(24);
        long unknownBefore = counted(db, "forged", "(unknown)");
        Kafka.send(List.of(
                agent.signedBytes("run/x", "not json".getBytes(StandardCharsets.UTF_8)),
                agent.signedBytes("run/y", "{}".getBytes(StandardCharsets.UTF_8)),
                TestAgent.record("run/z", "{}".getBytes(StandardCharsets.UTF_8), stranger, "c2ln")));
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        db.count("SELECT count(*) FROM rejected_event WHERE key_id IN (?, ?)", agent.keyId(), stranger)
                                == 3);
        assertThat(counted(db, "invalid", agent.keyId())).isEqualTo(2);
        assertThat(counted(db, "forged", "(unknown)")).isEqualTo(unknownBefore + 1);

        db.execute(
                "UPDATE rejected_event SET rejected_at = rejected_at - interval '40 days' WHERE key_id IN (?, ?)",
                agent.keyId(),
                stranger);
        assertThat(retention.prune(Duration.ofDays(30), Long.MAX_VALUE, Long.MAX_VALUE))
                .isGreaterThanOrEqualTo(3);
        assertThat(db.count("SELECT count(*) FROM rejected_event WHERE key_id IN (?, ?)", agent.keyId(), stranger))
                .isZero();
        assertThat(counted(db, "invalid", agent.keyId())).isEqualTo(2);
        assertThat(counted(db, "forged", "(unknown)")).isEqualTo(unknownBefore + 1);
    }

    @Test
    void theOldestRowsGoWhenTheKeptCopiesExceedTheirSize() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("sized");
        byte[] junk = "x".repeat(10_000).getBytes(StandardCharsets.UTF_8);
        Kafka.send(List.of(agent.signedBytes("run/a", junk), agent.signedBytes("run/b", junk)));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM rejected_event WHERE key_id = ?", agent.keyId()) == 2);

        retention.prune(Duration.ofDays(3650), 15_000, Long.MAX_VALUE);
        assertThat(db.count("SELECT coalesce(sum(octet_length(record)), 0) FROM rejected_event WHERE NOT held"))
                .isLessThanOrEqualTo(15_000);
        assertThat(db.rows("SELECT key_id FROM rejected_event ORDER BY id DESC LIMIT 1"))
                .containsExactly(List.of(agent.keyId()));
    }

    @Test
    void theDeadLetterTopicIsCompressedAndBoundedInTimeAndSize() {
        for (String name : List.of(
                TopicConfig.COMPRESSION_TYPE_CONFIG,
                TopicConfig.RETENTION_MS_CONFIG,
                TopicConfig.RETENTION_BYTES_CONFIG)) {
            assertThat(Kafka.topicConfig("podium.events.dlq", name))
                    .as(name)
                    .isEqualTo(TopicSetup.DLQ_CONFIGS.get(name));
        }
    }

    private static long counted(Db db, String reason, String keyId) {
        return db.count(
                "SELECT coalesce(sum(records), 0) FROM rejected_count WHERE reason = ? AND key_id = ?", reason, keyId);
    }
}
