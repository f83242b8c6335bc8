package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.sign.EventSigner;
import dev.podium.ingest.verify.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CheckQueueTest {

    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    /** The key each chunk named, in the order the chunks were checked. */
    private final List<String> checkedKeys = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void anotherKeysRecordsAreCheckedBetweenTheChunksOfABacklog() throws Exception {
        List<ConsumerRecord<byte[], byte[]>> poll = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            poll.add(record(i, "flood-run", "pk_0f100d0f100d0f100d0f100d"));
        }
        for (int i = 0; i < 10; i++) {
            poll.add(record(2_000 + i, "control-run", "pk_c0c0c0c0c0c0c0c0c0c0c0c0"));
        }
        CheckQueue checks = new CheckQueue(this::check, executor);
        // both agents sent records that verified before: each key has turns of its own
        checks.add(List.of(
                record(100_000, "earlier-flood-run", "pk_0f100d0f100d0f100d0f100d"),
                record(100_001, "earlier-run", "pk_c0c0c0c0c0c0c0c0c0c0c0c0")));
        while (checks.await().isPresent()) {
            // checked
        }
        checkedKeys.clear();
        checks.add(poll);
        while (checks.await().isPresent()) {
            // every chunk checked
        }

        assertThat(checkedKeys).hasSize(2_000 / CheckQueue.CHUNK_RECORDS + 1);
        assertThat(checkedKeys.indexOf("pk_c0c0c0c0c0c0c0c0c0c0c0c0")).isLessThanOrEqualTo(1);
    }

    @Test
    void keysNoRecordVerifiedUnderShareOneTurn() throws Exception {
        CheckQueue checks = new CheckQueue(this::check, executor);
        checks.add(List.of(record(100_000, "earlier-run", "pk_c0c0c0c0c0c0c0c0c0c0c0c0")));
        while (checks.await().isPresent()) {
            // checked
        }
        checkedKeys.clear();
        List<ConsumerRecord<byte[], byte[]>> poll = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            poll.add(record(i, "forged-" + i, "pk_%024x".formatted(i)));
        }
        poll.add(record(1_000, "control-run", "pk_c0c0c0c0c0c0c0c0c0c0c0c0"));
        checks.add(poll);
        while (checks.await().isPresent()) {
            // checked
        }

        assertThat(checkedKeys).hasSize(1_000 / CheckQueue.CHUNK_RECORDS + 1);
        assertThat(checkedKeys.indexOf("pk_c0c0c0c0c0c0c0c0c0c0c0c0")).isLessThanOrEqualTo(1);
    }

    @Test
    void aBacklogPolledBeforeItsKeyWasProvenLeavesTheSharedTurnOnceItIs() throws Exception {
        // one poll: nothing verified yet, so every record is in the shared turn, the control's behind the backlog
        List<ConsumerRecord<byte[], byte[]>> poll = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            poll.add(record(i, "flood-run", "pk_0f100d0f100d0f100d0f100d"));
        }
        poll.add(record(2_000, "control-run", "pk_c0c0c0c0c0c0c0c0c0c0c0c0"));
        CheckQueue checks = new CheckQueue(this::check, executor);
        checks.add(poll);
        while (checks.await().isPresent()) {
            // checked
        }

        // the first chunks were started before the flood's key verified; then its records went to a turn of their own
        assertThat(checkedKeys.indexOf("pk_c0c0c0c0c0c0c0c0c0c0c0c0")).isLessThanOrEqualTo(CheckQueue.IN_FLIGHT + 1);
    }

    @Test
    void aStreamsLaterRecordWaitsForItsEarlierRecordsCheck() {
        CheckQueue checks = new CheckQueue(
                chunk -> {
                    throw new AssertionError("not started in this test");
                },
                Executors.newSingleThreadExecutor(r -> new Thread(() -> {})));
        checks.add(List.of(record(7, "run-s", "pk_a")));

        PartitionStream stream = PartitionStream.of(record(9, "run-s", "pk_b"));
        assertThat(checks.holdsEarlier(stream, 9)).isTrue();
        assertThat(checks.holdsEarlier(stream, 7)).isFalse();
        assertThat(checks.holdsEarlier(PartitionStream.of(record(9, "run-t", "pk_b")), 9))
                .isFalse();
    }

    /** Every record verifies, under the key it names. */
    private BatchProcessor.Checked check(List<ConsumerRecord<byte[], byte[]>> chunk) {
        List<Verdict> verdicts = new ArrayList<>();
        List<String> payloads = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : chunk) {
            String key = keyId(r);
            verdicts.add(new Verdict.Verified(null, "hash", key, "agent-of-" + key));
            payloads.add(null);
        }
        checkedKeys.add(keyId(chunk.get(0)));
        return new BatchProcessor.Checked(chunk, verdicts, payloads);
    }

    private static String keyId(ConsumerRecord<byte[], byte[]> r) {
        return new String(r.headers().lastHeader(EventSigner.KEY_ID_HEADER).value(), StandardCharsets.UTF_8);
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String stream, String keyId) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8));
        byte[] key = stream.getBytes(StandardCharsets.UTF_8);
        return new ConsumerRecord<>(
                "podium.events",
                0,
                offset,
                0L,
                TimestampType.CREATE_TIME,
                key.length,
                100,
                key,
                new byte[0],
                headers,
                Optional.empty());
    }
}
