package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.ingest.testing.Kafka;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A backlog of records on one partition does not hold back another partition's record: Kafka hands out its fetched
 * records a partition at a time, and a poll that spent its budget steps its partition back for one poll while the
 * other is known to hold records. Without the rotation the other record came after the whole backlog (60 polls here).
 * Until the consumer has fetched the other partition once it cannot know that it holds anything, and how soon that is
 * depends on the machine's load, so the bound counts the backlog records read after the other partition's lag is known.
 */
@QuarkusTest
class GuardedPollsRotationIT {

    private static final int BACKLOG = 60;
    private static final int RECORD_BYTES = 600;
    /** Two backlog records a poll. */
    private static final long POLL_BYTES = 2 * RECORD_BYTES;

    @Inject
    ReadLedger ledger;

    @Test
    void anotherPartitionsRecordIsReadWithinAFewPollsOfABacklog() throws Exception {
        String topic = "rotation-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, Kafka.bootstrap()))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < BACKLOG; i++) {
            records.add(new ProducerRecord<>(topic, 0, null, new byte[RECORD_BYTES]));
        }
        records.add(new ProducerRecord<>(topic, 1, null, "other".getBytes()));
        Kafka.send(records);

        GuardedPolls polls = new GuardedPolls(ledger, "rotation-" + topic, 500, POLL_BYTES);
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Kafka.bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "rotation-" + topic);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        int polled = 0;
        int backlogBefore = 0;
        Integer backlogWhenKnown = null;
        boolean seen = false;
        try (KafkaConsumer<byte[], byte[]> c = polls.consumer(p)) {
            TopicPartition other = new TopicPartition(topic, 1);
            List<TopicPartition> both = List.of(new TopicPartition(topic, 0), other);
            c.assign(both);
            c.seekToBeginning(both);
            while (!seen && backlogBefore < BACKLOG && polled < 1_000) {
                for (ConsumerRecord<byte[], byte[]> r : polls.poll(c, Duration.ofMillis(500))) {
                    if (r.partition() == 1) {
                        seen = true;
                    } else if (!seen) {
                        backlogBefore++;
                    }
                }
                polled++;
                if (backlogWhenKnown == null && c.currentLag(other).orElse(0) > 0) {
                    backlogWhenKnown = backlogBefore;
                }
            }
        }
        assertThat(seen).isTrue();
        int afterKnown = backlogBefore - (backlogWhenKnown == null ? backlogBefore : backlogWhenKnown);
        assertThat(afterKnown)
                .as(
                        "backlog records read after the other partition was known to hold records (%d before),"
                                + " before its record, in %d polls",
                        backlogWhenKnown, polled)
                .isLessThanOrEqualTo(3 * 2);
    }
}
