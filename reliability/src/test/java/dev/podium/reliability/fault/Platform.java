package dev.podium.reliability.fault;

import dev.podium.events.sign.EventSigner;
import dev.podium.reliability.process.ChildProcess;
import dev.podium.reliability.process.IngestProcess;
import dev.podium.reliability.process.KafkaBrokerProcess;
import dev.podium.reliability.process.Ports;
import dev.podium.reliability.process.PrivatePostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Everything the cases run against, each a real process on its own port in 19000–19999: a Kafka broker, a private
 * PostgreSQL cluster and ingest-service's packaged application.
 */
public final class Platform implements AutoCloseable {

    /** ingest-service's consumer group on podium.events (podium.ingest.consumer.group-id, left at its default). */
    private static final String INGEST_GROUP = "podium-ingest";

    public final Path work;
    public final KafkaBrokerProcess kafka;
    public final PrivatePostgres postgres;
    public final IngestProcess ingest;
    /** A second ingest-service in the same consumer group, started only by the case that needs two. */
    public final IngestProcess secondIngest;

    public final AdminApi admin;
    public final Store store;
    /**
     * The agents' homes (journals) live on tmpfs when there is one: the journal fsyncs every entry, which costs 20-30 ms
     * on this kind of disk and nothing on tmpfs, and the cases kill processes, not the machine, so what a SIGKILL leaves
     * in the page cache is all the journal needs.
     */
    public final Path agentHomes;

    private final int basePort;

    private Platform(
            Path work,
            int basePort,
            KafkaBrokerProcess kafka,
            PrivatePostgres postgres,
            IngestProcess ingest,
            IngestProcess secondIngest,
            String token) {
        this.work = work;
        this.basePort = basePort;
        this.kafka = kafka;
        this.postgres = postgres;
        this.ingest = ingest;
        this.secondIngest = secondIngest;
        this.admin = new AdminApi(ingest.baseUrl(), token);
        this.store = new Store(postgres.jdbcUrl());
        Path shm = Path.of("/dev/shm");
        try {
            this.agentHomes = java.nio.file.Files.isDirectory(shm) && java.nio.file.Files.isWritable(shm)
                    ? java.nio.file.Files.createTempDirectory(shm, "podium-reliability-agents-")
                    : java.nio.file.Files.createDirectories(work.resolve("agents"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public static Platform start(Path work, Path ingestJar) {
        return start(work, ingestJar, List.of());
    }

    /** As {@link #start(Path, Path)}, with extra JVM options for ingest-service (such as a short job lease). */
    public static Platform start(Path work, Path ingestJar, List<String> ingestOptions) {
        int base = Ports.freeRun(5);
        KafkaBrokerProcess kafka = null;
        PrivatePostgres postgres = null;
        try {
            kafka = KafkaBrokerProcess.start(work.resolve("kafka"), base);
            postgres = PrivatePostgres.start(base + 2);
            String token = UUID.randomUUID().toString();
            IngestProcess ingest = new IngestProcess(
                    "ingest", ingestJar, work, base + 3, postgres.jdbcUrl(), kafka.bootstrapServers(), token);
            IngestProcess second = new IngestProcess(
                    "ingest-2", ingestJar, work, base + 4, postgres.jdbcUrl(), kafka.bootstrapServers(), token);
            ingest.start(ingestOptions);
            return new Platform(work, base, kafka, postgres, ingest, second, token);
        } catch (RuntimeException e) {
            if (kafka != null) {
                kafka.close();
            }
            if (postgres != null) {
                postgres.close();
            }
            throw e;
        }
    }

    /** The ports its processes listen on: Kafka's client and controller, PostgreSQL and the two ingest-services. */
    public List<Integer> ports() {
        return List.of(basePort, basePort + 1, basePort + 2, basePort + 3, basePort + 4);
    }

    public String bootstrap() {
        return kafka.bootstrapServers();
    }

    /** Where podium.events ends now, by partition. */
    public Map<TopicPartition, Long> eventsEnd() {
        try (Admin admin = admin()) {
            List<TopicPartition> parts = admin
                    .describeTopics(List.of(Credentials.EVENTS))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(Credentials.EVENTS)
                    .partitions()
                    .stream()
                    .map(p -> new TopicPartition(Credentials.EVENTS, p.partition()))
                    .toList();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            parts.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            Map<TopicPartition, Long> end = new HashMap<>();
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((tp, o) -> end.put(tp, o.offset()));
            return end;
        } catch (Exception e) {
            throw new IllegalStateException("could not read the end of " + Credentials.EVENTS, e);
        }
    }

    /**
     * Whether ingest-service has committed its offsets on podium.events up to {@code end}: it commits after the
     * database, so every record before is stored or rejected.
     */
    public boolean ingested(Map<TopicPartition, Long> end) {
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(INGEST_GROUP)
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            return end.entrySet().stream().allMatch(e -> {
                OffsetAndMetadata c = committed.get(e.getKey());
                return (c == null ? 0 : c.offset()) >= e.getValue();
            });
        } catch (Exception e) {
            throw new IllegalStateException("could not read the offsets of " + INGEST_GROUP, e);
        }
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        return Admin.create(p);
    }

    /** The agent's publisher in its own JVM (see {@link AgentDriver}). */
    public ChildProcess startAgent(String name, Path home, Credentials key, String seed, int count) {
        return ChildProcess.java(
                name,
                work.resolve("agents").resolve(home.getFileName() + ".log"),
                List.of("-Xmx256m", "-Djava.util.logging.config.file=" + work.resolve("kafka/logging.properties")),
                AgentDriver.class.getName(),
                List.of(
                        home.toString(),
                        bootstrap(),
                        key.agentId(),
                        key.keyId(),
                        key.secret(),
                        seed,
                        Integer.toString(count)));
    }

    /** Sends in order and waits for every acknowledgement. Compressed, so a record over 1 MiB still reaches ingest. */
    public List<RecordMetadata> produce(List<ProducerRecord<byte[], byte[]>> records) {
        return produce(records.size(), records::get);
    }

    /**
     * Sends {@code count} records made one at a time by {@code record} (a flood of 1 MiB records is never held whole),
     * in order, and waits for every acknowledgement.
     */
    public List<RecordMetadata> produce(int count, IntFunction<ProducerRecord<byte[], byte[]>> record) {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                acks.add(producer.send(record.apply(i)));
            }
            List<RecordMetadata> out = new ArrayList<>();
            for (Future<RecordMetadata> f : acks) {
                out.add(f.get());
            }
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("could not produce", e);
        }
    }

    /** A producer as {@link #produce} uses: acks from all, gzip, records up to 8 MiB before compression. */
    public KafkaProducer<byte[], byte[]> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024);
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** DLQ records by their source "partition@offset" on podium.events, with the reason and how often each is there. */
    public Map<String, String> deadLetters(Map<String, Integer> copies) {
        Map<String, String> out = new HashMap<>();
        scan("podium.events.dlq", (r, unused) -> {
            if ("podium.events".equals(header(r, "podium-reject-topic"))) {
                String where = header(r, "podium-reject-partition") + "@" + header(r, "podium-reject-offset");
                out.put(where, header(r, "podium-reject-reason"));
                copies.merge(where, 1, Integer::sum);
            }
        });
        return out;
    }

    /** Records on podium.events per signing key id (redeliveries included). */
    public Map<String, Long> recordsByKeyId() {
        Map<String, Long> out = new HashMap<>();
        scan("podium.events", (r, unused) -> {
            String key = header(r, EventSigner.KEY_ID_HEADER);
            out.merge(key == null ? "(none)" : key, 1L, Long::sum);
        });
        return out;
    }

    private void scan(String topic, BiConsumer<ConsumerRecord<byte[], byte[]>, Void> each) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "reliability-reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 * 1024 * 1024);
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end");
                }
                c.poll(Duration.ofMillis(500)).forEach(r -> {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        each.accept(r, null);
                    }
                });
            }
        }
    }

    static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        if (agentHomes.startsWith("/dev/shm")) {
            try (var files = java.nio.file.Files.walk(agentHomes)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            } catch (java.io.IOException e) {
                // tmpfs is cleared at reboot anyway
            }
        }
        try {
            secondIngest.close();
            ingest.close();
        } finally {
            try {
                kafka.close();
            } finally {
                postgres.close();
            }
        }
    }
}
