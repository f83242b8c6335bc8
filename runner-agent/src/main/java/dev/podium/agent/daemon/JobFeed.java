package dev.podium.agent.daemon;

import dev.podium.agent.publish.Topics;
import dev.podium.events.Envelope;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobEvent;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads all of {@code podium.jobs} from its beginning on every start, on one thread: the agent assigns itself every
 * partition (no consumer group, so a long job never causes a rebalance and every agent sees every record) and hands each
 * job event to the {@link JobDispatcher}, which deduplicates by event id. Once it has read up to the end offsets of the
 * start, it tells the dispatcher it has caught up. Records that do not decode as job events are skipped with a log line.
 */
final class JobFeed implements AutoCloseable {

    static final Duration POLL = Duration.ofMillis(300);

    private final EventCodec codec = new EventCodec();
    private final KafkaConsumer<String, byte[]> consumer;
    private final JobDispatcher dispatcher;
    private final PrintStream log;
    private final Thread thread;
    private volatile boolean closed;

    JobFeed(String bootstrapServers, String agentId, JobDispatcher dispatcher, PrintStream log) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        dev.podium.agent.publish.KafkaLogin.apply(p);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "podium-agent-jobs-" + agentId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        this.dispatcher = dispatcher;
        this.log = log;
        this.thread = new Thread(this::loop, "podium-jobs-feed");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void loop() {
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
                for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
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

    /** The topic's partitions, waiting for Kafka or the topic to be there. */
    private List<TopicPartition> partitions() {
        boolean told = false;
        while (!closed) {
            try {
                List<TopicPartition> parts = consumer.partitionsFor(Topics.JOBS, Duration.ofSeconds(10)).stream()
                        .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
                if (!parts.isEmpty()) {
                    return parts;
                }
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
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

    private void handle(ConsumerRecord<String, byte[]> r) {
        Decoded d = r.value() == null ? null : codec.decode(r.value());
        if (d instanceof Decoded.Accepted a && a.envelope().payload() instanceof JobEvent event) {
            Envelope e = a.envelope();
            dispatcher.accept(e.eventId(), event);
        } else {
            log.println("skipping record " + r.partition() + "/" + r.offset() + " of " + Topics.JOBS + ": "
                    + (d instanceof Decoded.Rejected x ? x.reason() : "not a job event"));
        }
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
