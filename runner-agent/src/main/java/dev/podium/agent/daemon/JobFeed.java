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
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 */
final class JobFeed implements AutoCloseable {

    static final Duration POLL = Duration.ofMillis(300);
    /** Job records are a few KB: what a poll may copy after decompression. */
    static final long POLL_BYTES = 8L * 1024 * 1024;

    static final String NO_COMMAND_KEY = "this agent takes no jobs: its key file has no command.public.key"
            + " (PODIUM_COMMAND_PUBLIC_KEY), so it cannot tell the command side's records from forged ones; copy the"
            + " command_public_key of ingest-service's GET /admin/command-key (also in every key issue or rotate answer)"
            + " into the key file as command.public.key and restart the agent";

    private final EventCodec codec = new EventCodec();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final PollBudget budget = new PollBudget(POLL_BYTES);
    private final JobDispatcher dispatcher;
    private final PublicKey commandKey;
    private final PrintStream log;
    private final Thread thread;
    private volatile boolean closed;

    JobFeed(String bootstrapServers, String agentId, PublicKey commandKey, JobDispatcher dispatcher, PrintStream log) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        KafkaLogin.apply(p);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "podium-agent-jobs-" + agentId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        this.consumer = new KafkaConsumer<>(
                p,
                new BoundedBytesDeserializer(BoundedBytesDeserializer.KEY_LIMIT, null),
                new BoundedBytesDeserializer(Limits.MAX_RECORD_BYTES, budget));
        this.dispatcher = dispatcher;
        this.commandKey = commandKey;
        this.log = log;
        this.thread = new Thread(this::loop, "podium-jobs-feed");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        if (commandKey == null) {
            log.println(NO_COMMAND_KEY);
            return;
        }
        try {
            List<TopicPartition> parts = partitions();
            if (parts.isEmpty()) {
                return;
            }
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            boolean caughtUp = false;
            while (!closed) {
                for (ConsumerRecord<byte[], byte[]> r : poll()) {
                    handle(r);
                }
                if (!caughtUp && end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                    caughtUp = true;
                    dispatcher.caughtUp();
                }
                dispatcher.tick();
            }
        } catch (WakeupException e) {
            if (!closed) {
                log.println("the podium.jobs reader stopped: " + e);
            }
        } catch (RuntimeException e) {
            log.println("the podium.jobs reader stopped: " + e);
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
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
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
