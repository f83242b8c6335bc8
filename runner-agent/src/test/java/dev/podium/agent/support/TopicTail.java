package dev.podium.agent.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads topics from their beginning on a background thread, for tests that wait for records as they arrive. */
public final class TopicTail implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
    private final Thread thread;
    private volatile boolean closed;

    public TopicTail(String bootstrapServers, String... topics) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = new ArrayList<>();
        for (String t : topics) {
            parts.addAll(consumer.partitionsFor(t, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(t, i.partition()))
                    .collect(Collectors.toList()));
        }
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        thread = new Thread(this::loop, "topic-tail");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (!closed) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    synchronized (records) {
                        records.add(r);
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(1));
        }
    }

    /** The records read so far, of one topic. */
    public List<ConsumerRecord<String, byte[]>> records(String topic) {
        synchronized (records) {
            return records.stream().filter(r -> r.topic().equals(topic)).toList();
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        consumer.wakeup();
        thread.join(5000);
    }
}
