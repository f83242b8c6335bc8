package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.ingest.verify.Verdict;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class CheckedTest {

    private static ConsumerRecord<byte[], byte[]> record(long offset) {
        return new ConsumerRecord<>("podium.events", 0, offset, new byte[0], new byte[0]);
    }

    private static Verdict refused(long offset) {
        return new Verdict.Refused("reason " + offset, null, null, null);
    }

    @Test
    void twoHalvesCheckedApartJoinInPollOrder() {
        var head = new BatchProcessor.Checked(
                List.of(record(1), record(2)),
                List.of(refused(1), refused(2)),
                java.util.Arrays.asList(null, "{\"b\":2}"));
        var tail = new BatchProcessor.Checked(List.of(record(3)), List.of(refused(3)), java.util.Arrays.asList("{}"));

        var both = head.followedBy(tail);

        assertThat(both.records()).extracting(ConsumerRecord::offset).containsExactly(1L, 2L, 3L);
        assertThat(both.verdicts()).containsExactly(refused(1), refused(2), refused(3));
        assertThat(both.payloads()).containsExactly(null, "{\"b\":2}", "{}");
        assertThat(head.records()).hasSize(2);
    }
}
