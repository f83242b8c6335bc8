package dev.podium.ingest.consumer;

import dev.podium.ingest.verify.Verdict;
import dev.podium.ingest.verify.Verifier;
import java.util.ArrayDeque;
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
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Records read ahead and not checked yet (decoding, validation, HMAC: the CPU work before a write), checked on the
 * second thread by turns between the key ids they name, in chunks: one agent's backlog of large records (a planted run's
 * samples) is checked a chunk at a time between the others' records, not all before them. The key a record names is the
 * writer's claim, not yet verified, so a key has turns of its own only once a record of it verified here; records naming
 * any other key share one turn, so a stranger naming a new key in every record gets one turn, not one each (a new
 * agent's first records wait in that turn). A record naming another agent's key only joins that agent's turns, and is
 * refused once checked. A turn's chunks are checked in the order they were polled, at most {@value #IN_FLIGHT} at a
 * time, and handed back in that order. Used by the consumer thread only.
 */
final class CheckQueue {

    /** Checks a chunk; {@link BatchProcessor#check} in service. */
    interface Checker {
        BatchProcessor.Checked check(List<ConsumerRecord<byte[], byte[]>> records) throws Exception;
    }

    /** A checked chunk; {@code dropped}: partitions revoked while it was checked, whose records are not kept. */
    record Done(BatchProcessor.Checked checked, Set<TopicPartition> dropped) {}

    static final int CHUNK_RECORDS = 100;
    static final long CHUNK_BYTES = 512 * 1024;
    /** Chunks on the checking thread at once: what a light writer's chunk may wait behind. */
    static final int IN_FLIGHT = 2;

    private static final String UNPROVEN = "";
    /** Keys remembered as verified, the most recently seen kept. */
    private static final int PROVEN_KEYS = 10_000;

    private static final class Chunk {
        final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        final Set<TopicPartition> dropped = new HashSet<>();
        long bytes;
        Future<BatchProcessor.Checked> checked;
    }

    private final Checker checker;
    private final ExecutorService executor;
    /** Chunks not started, per named key; keys in turn order (a key's turn sends it to the back). */
    private final Map<String, ArrayDeque<Chunk>> waiting = new LinkedHashMap<>();
    /** Chunks started, in the order they were started, which is the order the single checking thread ends them. */
    private final ArrayDeque<Chunk> inFlight = new ArrayDeque<>();
    /** Per stream, the offsets of its records not checked yet. */
    private final Map<PartitionStream, TreeSet<Long>> unchecked = new HashMap<>();
    /** Key ids whose records verified here. */
    private final Map<String, Boolean> proven = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > PROVEN_KEYS;
        }
    };

    CheckQueue(Checker checker, ExecutorService executor) {
        this.checker = checker;
        this.executor = executor;
    }

    boolean isEmpty() {
        return waiting.isEmpty() && inFlight.isEmpty();
    }

    /** Queues a poll's records by the key they name, in chunks, and starts checks. */
    void add(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, Chunk> open = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            queue(open, Verifier.keyId(r.headers()).filter(proven::containsKey).orElse(UNPROVEN), r);
            unchecked
                    .computeIfAbsent(PartitionStream.of(r), s -> new TreeSet<>())
                    .add(r.offset());
        }
        start();
    }

    /** Appends the record to the last chunk {@code open} holds for the turn, or to a new one. */
    private void queue(Map<String, Chunk> open, String turn, ConsumerRecord<byte[], byte[]> r) {
        Chunk chunk = open.get(turn);
        if (chunk == null || chunk.records.size() >= CHUNK_RECORDS || chunk.bytes >= CHUNK_BYTES) {
            chunk = new Chunk();
            open.put(turn, chunk);
            waiting.computeIfAbsent(turn, k -> new ArrayDeque<>()).add(chunk);
        }
        chunk.records.add(r);
        chunk.bytes += RecordBytes.of(r);
    }

    /**
     * Keys just proven get turns of their own for their records still waiting in the shared turn (all of a key's
     * records were there, in order, so they keep it): a backlog that arrived before its first record verified does not
     * stay in the turn of the records behind it.
     */
    private void promote(Set<String> keys) {
        ArrayDeque<Chunk> shared = waiting.get(UNPROVEN);
        if (shared == null || keys.isEmpty()) {
            return;
        }
        Map<String, Chunk> open = new HashMap<>();
        for (Chunk c : shared) {
            for (Iterator<ConsumerRecord<byte[], byte[]>> it = c.records.iterator(); it.hasNext(); ) {
                ConsumerRecord<byte[], byte[]> r = it.next();
                Optional<String> key = Verifier.keyId(r.headers()).filter(keys::contains);
                if (key.isPresent()) {
                    it.remove();
                    c.bytes -= RecordBytes.of(r);
                    queue(open, key.get(), r);
                }
            }
        }
        shared.removeIf(c -> c.records.isEmpty());
        if (shared.isEmpty()) {
            waiting.remove(UNPROVEN);
        }
    }

    /** The checks done, in order, without waiting; starts the next ones. */
    List<Done> done() throws Exception {
        List<Done> done = new ArrayList<>();
        while (!inFlight.isEmpty() && inFlight.peek().checked.isDone()) {
            done.add(finish(inFlight.poll()));
            start();
        }
        start();
        return done;
    }

    /** Waits for the oldest check started; empty when nothing is left to check. */
    Optional<Done> await() throws Exception {
        if (inFlight.isEmpty()) {
            return Optional.empty();
        }
        Done done = finish(inFlight.poll());
        start();
        return Optional.of(done);
    }

    /** Whether a record of the stream before {@code offset} is not checked yet: the record at it must wait for it. */
    boolean holdsEarlier(PartitionStream stream, long offset) {
        TreeSet<Long> offsets = unchecked.get(stream);
        return offsets != null && !offsets.isEmpty() && offsets.first() < offset;
    }

    /** Forgets the records of partitions that go; those being checked are left out when their check ends. */
    void drop(Collection<TopicPartition> partitions) {
        for (Chunk c : inFlight) {
            c.dropped.addAll(partitions);
        }
        for (Iterator<ArrayDeque<Chunk>> it = waiting.values().iterator(); it.hasNext(); ) {
            ArrayDeque<Chunk> chunks = it.next();
            chunks.forEach(
                    c -> c.records.removeIf(r -> partitions.contains(new TopicPartition(r.topic(), r.partition()))));
            chunks.removeIf(c -> c.records.isEmpty());
            if (chunks.isEmpty()) {
                it.remove();
            }
        }
        unchecked.keySet().removeIf(s -> partitions.contains(s.partition()));
    }

    private void start() {
        while (inFlight.size() < IN_FLIGHT && !waiting.isEmpty()) {
            Chunk chunk = nextByTurn();
            chunk.checked = executor.submit(() -> checker.check(chunk.records));
            inFlight.add(chunk);
        }
    }

    /** The first key's oldest chunk; the key goes to the back of the turns. */
    private Chunk nextByTurn() {
        Iterator<Map.Entry<String, ArrayDeque<Chunk>>> it = waiting.entrySet().iterator();
        Map.Entry<String, ArrayDeque<Chunk>> first = it.next();
        it.remove();
        Chunk chunk = first.getValue().poll();
        if (!first.getValue().isEmpty()) {
            waiting.put(first.getKey(), first.getValue());
        }
        return chunk;
    }

    private Done finish(Chunk chunk) throws Exception {
        BatchProcessor.Checked checked;
        try {
            checked = chunk.checked.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
        for (ConsumerRecord<byte[], byte[]> r : chunk.records) {
            PartitionStream s = PartitionStream.of(r);
            if (chunk.dropped.contains(s.partition())) {
                continue; // forgotten when dropped; what is there now is of the partition's next reading
            }
            TreeSet<Long> offsets = unchecked.get(s);
            if (offsets != null) {
                offsets.remove(r.offset());
                if (offsets.isEmpty()) {
                    unchecked.remove(s);
                }
            }
        }
        Set<String> newlyProven = new HashSet<>();
        for (Verdict v : checked.verdicts()) {
            if (v instanceof Verdict.Verified ok && proven.put(ok.keyId(), true) == null) {
                newlyProven.add(ok.keyId());
            }
        }
        promote(newlyProven);
        return new Done(checked, chunk.dropped);
    }
}
