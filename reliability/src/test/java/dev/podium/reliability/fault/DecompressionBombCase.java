package dev.podium.reliability.fault;

import dev.podium.events.Envelope;
import dev.podium.reliability.process.IngestProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Records with no signing key at all that decompress to more than twice ingest's heap, gzip and zstd, on podium.events and on
 * podium.heartbeats, each under the broker's 1 MiB on the wire, with a control run behind the events bombs on their
 * partition. Kafka decompresses a record whole before anything can look at it, so ingest dies reading each
 * ({@code -XX:+ExitOnOutOfMemoryError}); the harness starts it again as {@code ./podium up} does, and after two deaths
 * at a record it is set aside. Exact when the control run is stored, each events bomb has its rejected_event row, the
 * heartbeat consumer has read past its bombs, and every restart was ready within 60 s.
 */
final class DecompressionBombCase {

    /** Over twice the heap: the bytes cannot be held however the consumer reads them. */
    static final int BOMB_BYTES = 2 * IngestProcess.HEAP_MIB * 1024 * 1024 + 32 * 1024 * 1024;

    private static final String EVENTS = "podium.events";
    private static final String HEARTBEATS = "podium.heartbeats";
    private static final Duration BACK_WITHIN = Duration.ofSeconds(60);
    private static final int PARTITIONS = 12;
    private static final byte[] COMPACTION_KEY = "bomb".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private final Platform p;
    private final FaultCases cases;
    private final List<String> eventsCompressions;
    private final List<String> heartbeatsCompressions;

    /**
     * The full tier sends gzip and zstd to each topic; the ci tier one of each, gzip to events and zstd to heartbeats:
     * each bomb costs about three restarts.
     */
    DecompressionBombCase(Platform p, FaultCases cases, String tier) {
        this.p = p;
        this.cases = cases;
        boolean full = tier.equals("full");
        this.eventsCompressions = full ? List.of("gzip", "zstd") : List.of("gzip");
        this.heartbeatsCompressions = full ? List.of("gzip", "zstd") : List.of("zstd");
    }

    CaseResult run() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, p.bootstrap());
        try (Admin admin = Admin.create(props)) {
            return run(admin);
        }
    }

    /** {@code admin} reads ingest's committed offsets, every 200 ms while the restarts go on. */
    private CaseResult run(Admin admin) {
        Credentials key = cases.agent("bomb-control");
        List<Envelope> control = Workload.events(key.agentId(), "bomb-control", Workload.RUN_LENGTH);
        byte[] controlKey = key.signed(control.get(0)).key();
        int partition = BuiltInPartitioner.partitionForKey(controlKey, PARTITIONS);
        long t0 = System.nanoTime();
        List<RecordMetadata> bombs = new ArrayList<>();
        byte[] zeros = new byte[BOMB_BYTES];
        for (String compression : eventsCompressions) {
            bombs.add(send(compression, new ProducerRecord<>(EVENTS, partition, null, zeros)));
        }
        for (String compression : heartbeatsCompressions) {
            // a compacted topic takes only records with a key
            bombs.add(send(compression, new ProducerRecord<>(HEARTBEATS, COMPACTION_KEY, zeros)));
        }
        zeros = null;
        p.produce(control.stream().map(key::signed).toList());
        List<IngestProcess.Restart> restarts = p.ingest.restartWhileExiting(
                () -> p.store.stored(key.agentId()) == control.size()
                        && bombs.stream().allMatch(b -> passed(admin, b)),
                Duration.ofMinutes(10));
        double seconds = (System.nanoTime() - t0) / 1e9;

        List<String> problems = new ArrayList<>();
        long rejected = 0;
        for (RecordMetadata b : bombs) {
            if (!passed(admin, b)) {
                problems.add(b.topic() + "-" + b.partition() + "@" + b.offset() + " was never read past");
            }
            if (b.topic().equals(EVENTS)) {
                List<List<Object>> row = p.store.rows(
                        "SELECT reason FROM rejected_event WHERE topic = ? AND kafka_partition = ? AND kafka_offset = ?",
                        EVENTS,
                        b.partition(),
                        b.offset());
                if (row.size() == 1 && ((String) row.get(0).get(0)).startsWith("too large after decompression")) {
                    rejected++;
                } else {
                    problems.add("the events bomb at offset " + b.offset() + " has no rejected_event row: " + row);
                }
            }
        }
        for (IngestProcess.Restart r : restarts) {
            if (r.exitStatus() != 3) {
                problems.add("ingest exited " + r.exitStatus() + ", not 3 (ExitOnOutOfMemoryError)");
            }
            if (r.secondsToReady() > BACK_WITHIN.toSeconds()) {
                problems.add(String.format("ingest was ready again %.1f s after it ended", r.secondsToReady()));
            }
        }
        if (!restarts.isEmpty() && restarts.get(restarts.size() - 1).secondsToReady() < 0) {
            problems.add("ingest was not ready after its last restart");
        }
        System.out.printf(
                "[reliability] decompression bombs of %d MiB: %d restarts, ready again after %s s (from the first end"
                        + " of a run of restarts: %s s); control run stored in %.1f s%n",
                BOMB_BYTES >> 20,
                restarts.size(),
                restarts.stream()
                        .map(r -> String.format("%.1f", r.secondsToReady()))
                        .toList(),
                restarts.stream()
                        .filter(r -> r.secondsSinceFirstEnd() >= 0)
                        .map(r -> String.format("%.1f", r.secondsSinceFirstEnd()))
                        .toList(),
                seconds);
        long accepted = p.store.stored(key.agentId());
        return new CaseResult(
                "decompression-bomb",
                "unsigned records of " + (BOMB_BYTES >> 20) + " MiB after decompression (heap "
                        + IngestProcess.HEAP_MIB + " MiB): " + eventsCompressions + " on " + EVENTS + ", "
                        + heartbeatsCompressions + " on " + HEARTBEATS + "; " + restarts.size() + " restarts",
                key.keyId(),
                bombs.size() + control.size(),
                control.size(),
                eventsCompressions.size(),
                accepted,
                rejected,
                control.size() - accepted,
                p.store.duplicated(key.agentId()),
                0,
                seconds,
                problems);
    }

    /** Ingest's group has committed past the record. */
    private static boolean passed(Admin admin, RecordMetadata bomb) {
        String group = bomb.topic().equals(EVENTS) ? "podium-ingest" : "podium-ingest-heartbeats";
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            OffsetAndMetadata at = committed.get(new TopicPartition(bomb.topic(), bomb.partition()));
            return at != null && at.offset() > bomb.offset();
        } catch (Exception e) {
            return false;
        }
    }

    /** One record, alone in its batch, compressed with {@code compression}: a few hundred KB on the wire. */
    private RecordMetadata send(String compression, ProducerRecord<byte[], byte[]> record) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, p.bootstrap());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, BOMB_BYTES + 1024 * 1024);
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 2L * BOMB_BYTES);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            Future<RecordMetadata> ack = producer.send(record);
            return ack.get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not send a " + compression + " bomb to " + record.topic(), e);
        }
    }
}
