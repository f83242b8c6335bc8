package dev.podium.ingest.consumer;

import dev.podium.events.validate.Limits;
import dev.podium.ingest.store.RecordCopy;
import dev.podium.ingest.verify.Verdict;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The records polled and not written yet, read ahead of the writes so that one writer's backlog cannot hold back
 * another's records behind it in the same partition: each batch is taken from it fair between writers (deficit round
 * robin over what each record costs to write: its bytes, or the 64 KiB prefix a refusal that did not verify keeps), so a control run's records go into the next transaction however many records of a flood or
 * a planted run are in front of them. A writer is the agent whose key verified a record; every record that did not
 * verify counts as one writer, so records naming made-up keys share one turn.
 *
 * <p>Order is kept where it means something: a record is never written before an earlier record of its partition with
 * the same writer or the same Kafka key (its stream), so a stream's events, and an agent's, are written in the order
 * they were sent, and no other writer's record can overtake a run's start to claim its stream.
 *
 * <p>The committed offset of a partition is its lowest record not written yet: what a restart, or the next owner, reads
 * again. Records written ahead of it are read again as duplicates (the event store keeps one row per event id,
 * rejected_event one per source offset), the price of never committing past a record that was not written.
 *
 * <p>What it holds is bounded: a partition with {@code partitionRecords} records or {@code partitionBytes} bytes of
 * values waiting is paused ({@link #full}), and every partition with records waiting is paused while the whole holds
 * {@code totalBytes}; a partition with nothing waiting is always read, which is where another writer's records are.
 * Used by the consumer thread only.
 */
final class ReadAhead {

    /** A writer's bytes a turn of the round robin: a few small records, or a share of a large one. */
    static final long QUANTUM_BYTES = 64 * 1024;

    private static final String UNVERIFIED = "";

    /** A record checked and waiting, with what the schedule needs of it. */
    private record Waiting(
            ConsumerRecord<byte[], byte[]> record, Verdict verdict, String payload, TopicPartition partition) {

        String writer() {
            return verdict instanceof Verdict.Verified v ? v.agentId() : UNVERIFIED;
        }

        PartitionStream stream() {
            return PartitionStream.of(record);
        }

        long bytes() {
            return RecordBytes.of(record);
        }

        /**
         * What writing it costs, in bytes: a refusal that keeps only a prefix of the record (one that did not verify)
         * writes at most that prefix, to rejected_event and the DLQ, however large the record.
         */
        long cost() {
            return verdict instanceof Verdict.Refused r && !r.redrivable()
                    ? Math.min(bytes(), RecordCopy.PREFIX_BYTES)
                    : bytes();
        }
    }

    /** A batch to write: its records checked, and the offsets to commit once it is written. */
    record Batch(BatchProcessor.Checked checked, Map<TopicPartition, OffsetAndMetadata> offsets) {}

    private final int partitionRecords;
    private final long partitionBytes;
    private final long totalBytes;

    private final CheckQueue checks;
    /** Checked records per writer and partition, by offset; writers in the order they first came. */
    private final Map<String, Map<TopicPartition, TreeMap<Long, Waiting>>> byWriter = new LinkedHashMap<>();
    /** The offsets checked and not written yet of each stream, to keep a stream's order across writers. */
    private final Map<PartitionStream, TreeSet<Long>> byStream = new HashMap<>();
    /** The offsets not written yet per partition, checked or not: the lowest is what may be committed. */
    private final Map<TopicPartition, TreeSet<Long>> unwritten = new HashMap<>();

    private final Map<TopicPartition, Long> bytesWaiting = new HashMap<>();
    /** One past the highest offset polled per partition: committed once nothing below it waits. */
    private final Map<TopicPartition, Long> polledUpTo = new HashMap<>();

    private long bytes;

    ReadAhead(CheckQueue checks, int partitionRecords, long partitionBytes, long totalBytes) {
        this.checks = checks;
        this.partitionRecords = partitionRecords;
        this.partitionBytes = partitionBytes;
        this.totalBytes = totalBytes;
    }

    boolean isEmpty() {
        return checks.isEmpty() && byWriter.isEmpty();
    }

    /** Records polled and not written. */
    int size() {
        return unwritten.values().stream().mapToInt(Set::size).sum();
    }

    /** Whether more may be read ahead: below the bound of the whole. */
    boolean hasRoom() {
        return bytes < totalBytes;
    }

    /** Adds a poll's records, to be checked ({@link CheckQueue}). */
    void add(List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            unwritten.computeIfAbsent(tp, p -> new TreeSet<>()).add(r.offset());
            bytesWaiting.merge(tp, RecordBytes.of(r), Long::sum);
            polledUpTo.merge(tp, r.offset() + 1, Math::max);
            bytes += RecordBytes.of(r);
        }
        checks.done().forEach(this::enqueue); // keys proven so far give the new records their turns
        checks.add(records);
    }

    /** The partitions to leave unread for now: at their own bound, or every one with records waiting at the whole's. */
    Set<TopicPartition> full() {
        Set<TopicPartition> full = new HashSet<>();
        boolean whole = !hasRoom();
        unwritten.forEach((tp, offsets) -> {
            if (!offsets.isEmpty()
                    && (whole
                            || offsets.size() >= partitionRecords
                            || bytesWaiting.getOrDefault(tp, 0L) >= partitionBytes)) {
                full.add(tp);
            }
        });
        return full;
    }

    /**
     * The next batch, up to {@code maxRecords} records and {@code maxBytes} bytes of values (at least one record), fair
     * between writers, from the records checked so far; waits for a check only when none of them can be written yet.
     * Empty when nothing waits.
     */
    Optional<Batch> next(int maxRecords, long maxBytes) throws Exception {
        checks.done().forEach(this::enqueue);
        while (true) {
            if (!byWriter.isEmpty()) {
                Selection batch = select(maxRecords, maxBytes);
                if (!batch.records.isEmpty()) {
                    return Optional.of(new Batch(
                            new BatchProcessor.Checked(batch.records, batch.verdicts, batch.payloads),
                            committable(batch.partitions)));
                }
            }
            Optional<CheckQueue.Done> checked = checks.await();
            if (checked.isEmpty()) {
                if (byWriter.isEmpty()) {
                    return Optional.empty();
                }
                throw new IllegalStateException("no checked record can be written first: streams wait on each other");
            }
            enqueue(checked.get());
            checks.done().forEach(this::enqueue);
        }
    }

    private Selection select(int maxRecords, long maxBytes) {
        Selection batch = new Selection(maxRecords, maxBytes);
        Map<String, Long> credits = new HashMap<>();
        // The lowest checked record of each partition can be taken once its writer has the credit, unless an earlier
        // record of its stream is still being checked.
        int idleRounds = 0;
        while (!batch.full() && !byWriter.isEmpty() && idleRounds <= Limits.MAX_RECORD_BYTES / QUANTUM_BYTES + 1) {
            int before = batch.records.size();
            for (Iterator<Map.Entry<String, Map<TopicPartition, TreeMap<Long, Waiting>>>> it =
                            byWriter.entrySet().iterator();
                    it.hasNext() && !batch.full(); ) {
                Map.Entry<String, Map<TopicPartition, TreeMap<Long, Waiting>>> writer = it.next();
                long credit =
                        takeTurn(writer.getValue(), credits.getOrDefault(writer.getKey(), 0L) + QUANTUM_BYTES, batch);
                credits.put(writer.getKey(), credit);
                if (writer.getValue().isEmpty()) {
                    it.remove();
                }
            }
            idleRounds = batch.records.size() == before ? idleRounds + 1 : 0;
        }
        return batch;
    }

    /** One writer's turn: its records, partition by partition, in order, while its credit lasts; the credit left. */
    private long takeTurn(Map<TopicPartition, TreeMap<Long, Waiting>> queues, long credit, Selection batch) {
        for (Iterator<TreeMap<Long, Waiting>> it = queues.values().iterator(); it.hasNext() && !batch.full(); ) {
            TreeMap<Long, Waiting> queue = it.next();
            while (!queue.isEmpty() && !batch.full()) {
                Waiting head = queue.firstEntry().getValue();
                if (!isNextOfItsStream(head) || (!batch.records.isEmpty() && head.cost() > credit)) {
                    break;
                }
                queue.pollFirstEntry();
                batch.add(head);
                credit -= head.cost();
                taken(head);
            }
            if (queue.isEmpty()) {
                it.remove();
            }
        }
        return credit;
    }

    /** The records of the batch being chosen. */
    private static final class Selection {
        private final int maxRecords;
        private final long maxBytes;
        final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        final List<Verdict> verdicts = new ArrayList<>();
        final List<String> payloads = new ArrayList<>();
        final Set<TopicPartition> partitions = new HashSet<>();
        private long bytes;

        Selection(int maxRecords, long maxBytes) {
            this.maxRecords = maxRecords;
            this.maxBytes = maxBytes;
        }

        boolean full() {
            return records.size() >= maxRecords || (!records.isEmpty() && bytes >= maxBytes);
        }

        void add(Waiting w) {
            records.add(w.record());
            verdicts.add(w.verdict());
            payloads.add(w.payload());
            partitions.add(w.partition());
            bytes += w.cost();
        }
    }

    /** Every record still waiting, in batches of {@code next}'s bounds: for a write of everything before a seek. */
    List<Batch> all(int maxRecords, long maxBytes) throws Exception {
        List<Batch> all = new ArrayList<>();
        for (Optional<Batch> b = next(maxRecords, maxBytes); b.isPresent(); b = next(maxRecords, maxBytes)) {
            all.add(b.get());
        }
        return all;
    }

    /**
     * Forgets what waits of partitions that go to another member (or were lost): never written here, they are read
     * again by their next owner from the offset committed for them, which {@link #committable} gives before this.
     */
    void drop(Collection<TopicPartition> partitions) {
        checks.drop(partitions);
        for (Iterator<Map<TopicPartition, TreeMap<Long, Waiting>>> it =
                        byWriter.values().iterator();
                it.hasNext(); ) {
            Map<TopicPartition, TreeMap<Long, Waiting>> queues = it.next();
            queues.keySet().removeAll(partitions);
            if (queues.isEmpty()) {
                it.remove();
            }
        }
        byStream.keySet().removeIf(s -> partitions.contains(s.partition()));
        for (TopicPartition tp : partitions) {
            unwritten.remove(tp);
            polledUpTo.remove(tp);
            Long b = bytesWaiting.remove(tp);
            bytes -= b == null ? 0 : b;
        }
    }

    /** The consumer was moved past {@code next} on the partition (a record set aside): never commit below it again. */
    void passed(TopicPartition tp, long next) {
        polledUpTo.merge(tp, next, Math::max);
    }

    /** The offset to commit for each partition: its lowest record not written, or past every record polled. */
    Map<TopicPartition, OffsetAndMetadata> committable(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : partitions) {
            TreeSet<Long> waiting = unwritten.get(tp);
            Long next = waiting == null || waiting.isEmpty() ? polledUpTo.get(tp) : waiting.first();
            if (next != null) {
                offsets.put(tp, new OffsetAndMetadata(next));
            }
        }
        return offsets;
    }

    private boolean isNextOfItsStream(Waiting w) {
        TreeSet<Long> offsets = byStream.get(w.stream());
        long offset = w.record().offset();
        return (offsets == null || offsets.isEmpty() || offsets.first() == offset)
                && !checks.holdsEarlier(w.stream(), offset);
    }

    private void taken(Waiting w) {
        TopicPartition tp = w.partition();
        TreeSet<Long> offsets = byStream.get(w.stream());
        if (offsets != null) {
            offsets.remove(w.record().offset());
            if (offsets.isEmpty()) {
                byStream.remove(w.stream());
            }
        }
        TreeSet<Long> waiting = unwritten.get(tp);
        waiting.remove(w.record().offset());
        bytesWaiting.merge(tp, -w.bytes(), Long::sum);
        bytes -= w.bytes();
    }

    /**
     * A checked record as it waits. A refusal that keeps only a prefix (it did not verify) waits as that prefix, its
     * size and hash taken now: the record's bytes leave the read-ahead at once, so a flood of unverified records holds
     * 64 KiB each, not up to 1 MiB, and its partition is read on to whatever waits behind it.
     */
    private Waiting waiting(ConsumerRecord<byte[], byte[]> r, Verdict verdict, String payload, TopicPartition tp) {
        if (!(verdict instanceof Verdict.Refused refused)
                || refused.keepsWhole()
                || RecordBytes.of(r) <= RecordCopy.PREFIX_BYTES) {
            return new Waiting(r, verdict, payload, tp);
        }
        RecordCopy kept = RecordCopy.of(r.value(), false);
        byte[] prefix = kept.bytes() == null ? new byte[0] : kept.bytes();
        ConsumerRecord<byte[], byte[]> slim = new ConsumerRecord<>(
                r.topic(),
                r.partition(),
                r.offset(),
                r.timestamp(),
                r.timestampType(),
                r.serializedKeySize(),
                prefix.length,
                r.key(),
                prefix,
                r.headers(),
                r.leaderEpoch());
        long freed = RecordBytes.of(r) - RecordBytes.of(slim);
        bytesWaiting.merge(tp, -freed, Long::sum);
        bytes -= freed;
        return new Waiting(slim, refused.keeping(kept), payload, tp);
    }

    /** Moves a checked chunk into the writers' queues. */
    private void enqueue(CheckQueue.Done done) {
        BatchProcessor.Checked checked = done.checked();
        for (int i = 0; i < checked.records().size(); i++) {
            ConsumerRecord<byte[], byte[]> r = checked.records().get(i);
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            if (done.dropped().contains(tp)) {
                continue;
            }
            Waiting w = waiting(r, checked.verdicts().get(i), checked.payloads().get(i), tp);
            byWriter.computeIfAbsent(w.writer(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(tp, k -> new TreeMap<>())
                    .put(r.offset(), w);
            byStream.computeIfAbsent(w.stream(), k -> new TreeSet<>()).add(r.offset());
        }
    }
}
