package dev.podium.agent.daemon;

import dev.podium.agent.publish.KafkaLogin;
import dev.podium.agent.publish.Topics;
import dev.podium.events.Envelope;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobEvent;
import dev.podium.events.kafka.BoundedBytesDeserializer;
import dev.podium.events.kafka.PollBudget;
import dev.podium.events.sign.CommandSignature;
import dev.podium.events.validate.Limits;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;

/**
 * Reads all of {@code podium.jobs} from its beginning on every start, on one thread: the agent assigns itself every
 * partition (no consumer group, so a long job never causes a rebalance and every agent sees every record) and hands each
 * job event to the {@link JobDispatcher}, which deduplicates by event id. Once it has read up to the end offsets of the
 * start, it tells the dispatcher it has caught up. Records that do not decode as job events, or whose command signature
 * ({@link CommandSignature}) does not verify under the command side's public key, are skipped with a log line: anyone
 * who can write to the topic can write records, only the command side can sign them. Without a public key the agent
 * acts on nothing.
 * <p>
 * Before each poll the positions it reads from are saved in the {@link ReadLedger}. A start after the agent ended while
 * reading (a record too large for the heap after decompression) first reads the partitions where it ended one record a
 * poll, one partition at a time, with a consumer made for that, skipping the records set aside; then all partitions as
 * usual.
 */
final class JobFeed implements AutoCloseable {

    static final Duration POLL = Duration.ofMillis(300);
    /** Job records are a few KB: what a poll may copy after decompression. */
    static final long POLL_BYTES = 8L * 1024 * 1024;
    /** Records of one poll, outside the careful reading: the ledger blames a death on this many from a position. */
    static final int MAX_POLL_RECORDS = 500;

    static final String NO_COMMAND_KEY = "this agent takes no jobs: its key file has no command.public.key"
            + " (PODIUM_COMMAND_PUBLIC_KEY), so it cannot tell the command side's records from forged ones; copy the"
            + " command_public_key of ingest-service's GET /admin/command-key (also in every key issue or rotate answer)"
            + " into the key file as command.public.key and restart the agent";

    private final EventCodec codec = new EventCodec();
    private final Properties properties = new Properties();
    private final PollBudget budget = new PollBudget(POLL_BYTES);
    private final Path ledgerFile;
    private final JobDispatcher dispatcher;
    private final PublicKey commandKey;
    private final PrintStream log;
    private final Thread thread;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile boolean closed;

    /** {@code ledgerFile}: the {@link ReadLedger}'s file, in the agent's home. */
    JobFeed(
            String bootstrapServers,
            KafkaLogin login,
            String agentId,
            PublicKey commandKey,
            Path ledgerFile,
            JobDispatcher dispatcher,
            PrintStream log) {
        properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        KafkaLogin.apply(properties, login);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "podium-agent-jobs-" + agentId);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        this.ledgerFile = ledgerFile;
        this.dispatcher = dispatcher;
        this.commandKey = commandKey;
        this.log = log;
        this.thread = new Thread(this::loop, "podium-jobs-feed");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private KafkaConsumer<byte[], byte[]> consumer(int maxPollRecords) {
        Properties p = new Properties();
        p.putAll(properties);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        return new KafkaConsumer<>(
                p,
                new BoundedBytesDeserializer(BoundedBytesDeserializer.KEY_LIMIT, null),
                new BoundedBytesDeserializer(Limits.MAX_RECORD_BYTES, budget));
    }

    private void loop() {
        if (commandKey == null) {
            log.println(NO_COMMAND_KEY);
            return;
        }
        ReadLedger ledger = ReadLedger.load(ledgerFile, MAX_POLL_RECORDS, log);
        try {
            consumer = consumer(MAX_POLL_RECORDS);
            List<TopicPartition> parts = partitions();
            if (parts.isEmpty()) {
                return;
            }
            Map<TopicPartition, Long> from = new HashMap<>(consumer.beginningOffsets(parts));
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            Map<TopicPartition, Long> careful = ledger.start(from, end);
            if (!careful.isEmpty()) {
                from.putAll(readWhereTheAgentEnded(ledger, parts, from, careful));
            }
            consumer.assign(parts);
            from.forEach(consumer::seek);
            readOn(ledger, parts, end);
        } catch (WakeupException e) {
            if (!closed) {
                log.println("the podium.jobs reader stopped: " + e);
            }
        } catch (RuntimeException e) {
            log.println("the podium.jobs reader stopped: " + e);
        } finally {
            if (consumer != null) {
                consumer.close(Duration.ofSeconds(2));
            }
        }
        // Not reached when an Error (an OutOfMemoryError without -XX:+ExitOnOutOfMemoryError) ended the reading.
        try {
            ledger.closed();
        } catch (UncheckedIOException e) {
            log.println(e.getMessage() + ": " + e.getCause());
        }
    }

    /**
     * After the agent ended while reading: a consumer of one record a poll reads the partitions of {@code careful} up to
     * where that happened ({@link #readCarefully}); returns where it stopped. The consumer reading whole polls is
     * created again after it.
     */
    private Map<TopicPartition, Long> readWhereTheAgentEnded(
            ReadLedger ledger,
            List<TopicPartition> parts,
            Map<TopicPartition, Long> from,
            Map<TopicPartition, Long> careful) {
        log.println("reading " + Topics.JOBS + " one record a poll where the agent ended while reading it"
                + " or set records aside: "
                + careful.entrySet().stream()
                        .map(e -> "partition " + e.getKey().partition() + " up to offset " + e.getValue())
                        .sorted()
                        .toList());
        consumer.close(Duration.ofSeconds(2));
        consumer = consumer(1);
        consumer.assign(parts);
        Map<TopicPartition, Long> stopped = readCarefully(ledger, from, careful);
        consumer.close(Duration.ofSeconds(2));
        consumer = consumer(MAX_POLL_RECORDS);
        return stopped;
    }

    /** Reads on until closed, the positions saved before each poll; tells the dispatcher once it caught up with {@code end}. */
    private void readOn(ReadLedger ledger, List<TopicPartition> parts, Map<TopicPartition, Long> end) {
        boolean caughtUp = false;
        while (!closed) {
            Map<TopicPartition, Long> positions = new HashMap<>();
            parts.forEach(tp -> positions.put(tp, consumer.position(tp)));
            ledger.reading(positions, false);
            for (ConsumerRecord<byte[], byte[]> r : poll()) {
                handle(r);
            }
            if (!caughtUp && end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                caughtUp = true;
                dispatcher.caughtUp();
            }
            dispatcher.tick();
        }
    }

    /**
     * Reads each partition of {@code until} alone from {@code from}, one record a poll, its position saved as exact
     * before each poll, up to its offset there; records set aside are skipped. Returns where it stopped.
     */
    private Map<TopicPartition, Long> readCarefully(
            ReadLedger ledger, Map<TopicPartition, Long> from, Map<TopicPartition, Long> until) {
        Map<TopicPartition, Long> read = new HashMap<>();
        for (TopicPartition tp : until.keySet().stream()
                .sorted(Comparator.comparingInt(TopicPartition::partition))
                .toList()) {
            consumer.pause(consumer.assignment());
            consumer.resume(List.of(tp));
            consumer.seek(tp, from.get(tp));
            long at;
            while (!closed && (at = consumer.position(tp)) < until.get(tp)) {
                Optional<String> why = ledger.setAside(tp, at);
                if (why.isPresent()) {
                    log.println(
                            "skipping record " + tp.partition() + "/" + at + " of " + Topics.JOBS + ": " + why.get());
                    consumer.seek(tp, at + 1);
                    continue;
                }
                ledger.reading(Map.of(tp, at), true);
                for (ConsumerRecord<byte[], byte[]> r : poll()) {
                    handle(r);
                }
                dispatcher.tick();
            }
            read.put(tp, consumer.position(tp));
        }
        return read;
    }

    /**
     * The next records; one over the size limit after decompression is skipped without being copied (anyone who can
     * write the topic can send one), and the reader seeks past it.
     */
    private List<ConsumerRecord<byte[], byte[]>> poll() {
        budget.reset();
        try {
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            consumer.poll(POLL).forEach(out::add);
            return out;
        } catch (RecordDeserializationException e) {
            BoundedBytesDeserializer.refusal(e).ifPresent(why -> {
                log.println("skipping record " + e.topicPartition().partition() + "/" + e.offset() + " of "
                        + Topics.JOBS + ": " + why);
                consumer.seek(e.topicPartition(), e.offset() + 1);
            });
            return List.of();
        }
    }

    /** The topic's partitions, waiting for Kafka or the topic to be there. */
    private List<TopicPartition> partitions() {
        boolean told = false;
        while (!closed) {
            try {
                List<TopicPartition> parts = consumer.partitionsFor(Topics.JOBS, Duration.ofSeconds(10)).stream()
                        .map(i -> new TopicPartition(i.topic(), i.partition()))
                        .toList();
                if (!parts.isEmpty()) {
                    return parts;
                }
            } catch (TimeoutException e) {
                // Kafka not reachable yet
            }
            if (!told) {
                log.println("waiting for topic " + Topics.JOBS + " to take jobs");
                told = true;
            }
            synchronized (this) {
                try {
                    wait(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return List.of();
                }
            }
        }
        return List.of();
    }

    private void handle(ConsumerRecord<byte[], byte[]> r) {
        Decoded d = r.value() == null ? null : codec.decode(r.value());
        if (!(d instanceof Decoded.Accepted a && a.envelope().payload() instanceof JobEvent event)) {
            skip(r, d instanceof Decoded.Rejected x ? x.reason() : "not a job event");
            return;
        }
        Integer epoch = epoch(r);
        String signature = header(r, CommandSignature.SIGNATURE_HEADER);
        if (epoch == null || signature == null) {
            skip(r, "not signed by the command side");
        } else if (!CommandSignature.verify(commandKey, event, epoch, r.value(), signature)) {
            skip(r, "its command signature does not verify");
        } else {
            Envelope e = a.envelope();
            dispatcher.accept(e.eventId(), event, epoch);
        }
    }

    private void skip(ConsumerRecord<byte[], byte[]> r, String why) {
        log.println("skipping record " + r.partition() + "/" + r.offset() + " of " + Topics.JOBS + ": " + why);
    }

    private static Integer epoch(ConsumerRecord<byte[], byte[]> r) {
        String text = header(r, CommandSignature.EPOCH_HEADER);
        try {
            return text == null ? null : Integer.valueOf(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            notifyAll();
        }
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
