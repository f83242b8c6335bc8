package dev.podium.ingest.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.sign.EventSigner;
import dev.podium.ingest.store.RecordCopy;
import dev.podium.ingest.verify.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReadAheadTest {

    private static final String TOPIC = "podium.events";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    private final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    private final List<Verdict> verdicts = new ArrayList<>();
    /** Checks each chunk as it is started: what the schedule does with checked records does not wait on threads. */
    private final ExecutorService checker = new DirectExecutor();

    @Test
    void anotherWritersRecordsBehindABacklogGoIntoTheNextBatch() throws Exception {
        for (int i = 0; i < 1_500; i++) {
            add(P0, i, "flood-run-" + i % 7, verified("flood"), 1_000);
        }
        for (int i = 0; i < 10; i++) {
            add(P0, 1_500 + i, "control-run", verified("control"), 1_000);
        }
        ReadAhead ahead = readAhead();
        proven(ahead, "flood", "control");
        ahead.add(List.copyOf(records));

        ReadAhead.Batch first = ahead.next(500, 8L * 1024 * 1024).orElseThrow();

        assertThat(writers(first).stream().filter("control"::equals)).hasSize(10);
        assertThat(first.checked().records()).hasSizeLessThanOrEqualTo(500);
        // the flood's records not written yet are read again after a restart: the commit stays below them
        long lowestFloodLeft = first.checked().records().stream()
                .filter(r -> new String(r.key(), StandardCharsets.UTF_8).startsWith("flood"))
                .count();
        assertThat(first.offsets()).containsEntry(P0, new OffsetAndMetadata(lowestFloodLeft));
    }

    @Test
    void aStreamsRecordsKeepTheirOrderWhateverTheirWriter() throws Exception {
        // the flood writes ahead of the control's stream a record of that stream: it must go first
        for (int i = 0; i < 600; i++) {
            add(P0, i, "flood-run", verified("flood"), 100);
        }
        add(P0, 600, "control-run", verified("flood"), 100);
        add(P0, 601, "control-run", verified("control"), 100);
        ReadAhead ahead = readAhead();
        ahead.add(List.copyOf(records));

        List<Long> controlStream = new ArrayList<>();
        for (Optional<ReadAhead.Batch> b = ahead.next(100, 1L << 30); b.isPresent(); b = ahead.next(100, 1L << 30)) {
            b.get().checked().records().stream()
                    .filter(r -> new String(r.key(), StandardCharsets.UTF_8).equals("control-run"))
                    .forEach(r -> controlStream.add(r.offset()));
        }
        assertThat(controlStream).containsExactly(600L, 601L);
    }

    @Test
    void everyRecordIsTakenWhenTwoWritersStreamsCrossPartitions() throws Exception {
        // writer a: p0/10 (stream s), p1/1 (stream t); writer b: p1/3 (stream t), p0/5 (stream s)
        add(P0, 5, "s", verified("b"), 100);
        add(P0, 10, "s", verified("a"), 100);
        add(P1, 1, "t", verified("a"), 100);
        add(P1, 3, "t", verified("b"), 100);
        ReadAhead ahead = readAhead();
        ahead.add(List.copyOf(records));

        List<String> order = new ArrayList<>();
        for (Optional<ReadAhead.Batch> b = ahead.next(1, 1L << 30); b.isPresent(); b = ahead.next(1, 1L << 30)) {
            ConsumerRecord<byte[], byte[]> r = b.get().checked().records().get(0);
            order.add(r.partition() + "/" + r.offset());
        }
        assertThat(order).containsExactlyInAnyOrder("0/5", "0/10", "1/1", "1/3");
        assertThat(order.indexOf("0/5")).isLessThan(order.indexOf("0/10"));
        assertThat(order.indexOf("1/1")).isLessThan(order.indexOf("1/3"));
        assertThat(ahead.isEmpty()).isTrue();
    }

    @Test
    void recordsThatDidNotVerifyShareOneTurnWhateverKeyTheyName() throws Exception {
        for (int i = 0; i < 2_000; i++) {
            add(P0, i, "forged-" + i, new Verdict.Refused("forged: unknown key k" + i, "k" + i, null, null), 1_000);
        }
        for (int i = 0; i < 20; i++) {
            add(P0, 2_000 + i, "control-run", verified("control"), 1_000);
        }
        ReadAhead ahead = readAhead();
        proven(ahead, "control");
        ahead.add(List.copyOf(records));

        ReadAhead.Batch first = ahead.next(500, 8L * 1024 * 1024).orElseThrow();

        assertThat(writers(first).stream().filter("control"::equals)).hasSize(20);
    }

    @Test
    void aRefusalThatKeepsAPrefixCostsABatchThePrefixNotTheRecord() throws Exception {
        byte[] value = new byte[1 << 20];
        for (int i = 0; i < 100; i++) {
            add(P0, i, null, new Verdict.Refused("unsigned: no podium-key-id header", null, null, null, false), 0);
            records.set(i, withValue(records.get(i), value));
        }
        ReadAhead ahead = readAhead();
        ahead.add(List.copyOf(records));

        ReadAhead.Batch first = ahead.next(500, 2L * 1024 * 1024).orElseThrow();

        assertThat(first.checked().records()).hasSize(32);
    }

    /**
     * A record refused without verifying waits as the prefix it keeps, its size and hash taken at once: its bytes leave
     * the read-ahead, so its partition is read on to what waits behind it.
     */
    @Test
    void anUnverifiedRefusalWaitsAsItsPrefixAndFreesItsPartition() throws Exception {
        byte[] value = new byte[1 << 20];
        Arrays.fill(value, (byte) 'x');
        for (int i = 0; i < 8; i++) {
            add(P0, i, null, new Verdict.Refused("unsigned: no podium-key-id header", null, null, null, false), 0);
            records.set(i, withValue(records.get(i), value));
        }
        ReadAhead ahead = readAhead(2_000, 4L << 20, 16L << 20);
        ahead.add(List.copyOf(records));
        assertThat(ahead.full()).containsExactly(P0);

        ReadAhead.Batch first = ahead.next(1, 1L << 30).orElseThrow();

        assertThat(ahead.full()).isEmpty();
        ConsumerRecord<byte[], byte[]> written = first.checked().records().get(0);
        assertThat(written.value()).hasSize(RecordCopy.PREFIX_BYTES);
        Verdict.Refused refused = (Verdict.Refused) first.checked().verdicts().get(0);
        assertThat(refused.kept().originalBytes()).isEqualTo(value.length);
        assertThat(refused.kept().sha256())
                .isEqualTo(RecordCopy.of(value, false).sha256());
        assertThat(refused.kept().truncated()).isTrue();
    }

    @Test
    void aPartitionAtItsBoundIsLeftUnreadAndTheOthersAreRead() throws Exception {
        for (int i = 0; i < 40; i++) {
            add(P0, i, "flood-run", verified("flood"), 100);
        }
        add(P1, 0, "control-run", verified("control"), 100);
        ReadAhead ahead = readAhead(40, 1L << 20, 1L << 30);
        ahead.add(List.copyOf(records));

        assertThat(ahead.full()).containsExactly(P0);
    }

    @Test
    void droppedPartitionsAreForgottenAndCommitWhereTheirFirstUnwrittenRecordIs() throws Exception {
        for (int i = 0; i < 10; i++) {
            add(P0, 100 + i, "run-a", verified("a"), 100);
            add(P1, 200 + i, "run-b", verified("b"), 100);
        }
        ReadAhead ahead = readAhead();
        ahead.add(List.copyOf(records));

        assertThat(ahead.committable(List.of(P0, P1)))
                .containsEntry(P0, new OffsetAndMetadata(100))
                .containsEntry(P1, new OffsetAndMetadata(200));
        ahead.drop(List.of(P1));
        List<ConsumerRecord<byte[], byte[]>> left = new ArrayList<>();
        for (Optional<ReadAhead.Batch> b = ahead.next(500, 1L << 30); b.isPresent(); b = ahead.next(500, 1L << 30)) {
            left.addAll(b.get().checked().records());
        }
        assertThat(left).allMatch(r -> r.partition() == 0).hasSize(10);
        assertThat(ahead.committable(List.of(P0))).containsEntry(P0, new OffsetAndMetadata(110));
    }

    private ReadAhead readAhead() {
        return readAhead(2_000, 4L * 1024 * 1024, 16L * 1024 * 1024);
    }

    private ReadAhead readAhead(int partitionRecords, long partitionBytes, long totalBytes) {
        return new ReadAhead(new CheckQueue(this::check, checker), partitionRecords, partitionBytes, totalBytes);
    }

    @AfterEach
    void stopChecker() {
        checker.shutdownNow();
    }

    private static Verdict verified(String agent) {
        return new Verdict.Verified(null, "hash", "key-of-" + agent, agent);
    }

    /**
     * Records of these writers have verified before (they are enrolled agents that sent runs): from then on, each writer's
     * records are checked in turns of their own.
     */
    private void proven(ReadAhead ahead, String... writers) throws Exception {
        List<ConsumerRecord<byte[], byte[]>> before = new ArrayList<>(records);
        for (int i = 0; i < writers.length; i++) {
            add(P1, 1_000_000 + i, "earlier-run-" + i, verified(writers[i]), 100);
        }
        List<ConsumerRecord<byte[], byte[]>> earlier = new ArrayList<>(records);
        earlier.removeAll(before);
        ahead.add(earlier);
        while (ahead.next(500, 1L << 30).isPresent()) {
            // written
        }
        verdicts.subList(before.size(), records.size()).clear();
        records.subList(before.size(), records.size()).clear();
    }

    private void add(TopicPartition tp, long offset, String key, Verdict verdict, int valueBytes) {
        byte[] k = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        RecordHeaders headers = new RecordHeaders();
        String keyId = verdict instanceof Verdict.Verified v ? v.keyId() : ((Verdict.Refused) verdict).keyId();
        if (keyId != null) {
            headers.add(EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8));
        }
        records.add(new ConsumerRecord<>(
                tp.topic(),
                tp.partition(),
                offset,
                0L,
                TimestampType.CREATE_TIME,
                k == null ? -1 : k.length,
                valueBytes,
                k,
                new byte[0],
                headers,
                Optional.empty()));
        verdicts.add(verdict);
    }

    private static ConsumerRecord<byte[], byte[]> withValue(ConsumerRecord<byte[], byte[]> r, byte[] value) {
        return new ConsumerRecord<>(
                r.topic(),
                r.partition(),
                r.offset(),
                r.timestamp(),
                r.timestampType(),
                r.serializedKeySize(),
                value.length,
                r.key(),
                value,
                r.headers(),
                r.leaderEpoch());
    }

    /** What {@link BatchProcessor#check} would say of these records: the verdicts given with them. */
    private BatchProcessor.Checked check(List<ConsumerRecord<byte[], byte[]>> chunk) {
        List<Verdict> given = new ArrayList<>();
        List<String> payloads = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : chunk) {
            given.add(verdicts.get(records.indexOf(r)));
            payloads.add(null);
        }
        return new BatchProcessor.Checked(List.copyOf(chunk), given, payloads);
    }

    /** Runs each task as it is submitted. */
    private static final class DirectExecutor extends AbstractExecutorService {
        private boolean shutdown;

        @Override
        public void execute(Runnable command) {
            command.run();
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }

    private static List<String> writers(ReadAhead.Batch batch) {
        return batch.checked().verdicts().stream()
                .map(v -> v instanceof Verdict.Verified ok ? ok.agentId() : "")
                .toList();
    }
}
