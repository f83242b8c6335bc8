package dev.podium.ingest.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.eclipse.microprofile.config.ConfigProvider;

/** Producing to and reading back from the test broker. */
public final class Kafka {

    private Kafka() {}

    public static String bootstrap() {
        return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
    }

    /** Sends in order and waits for every acknowledgement; the metadata of each record, in order. */
    public static List<RecordMetadata> send(List<ProducerRecord<byte[], byte[]>> records) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> r : records) {
                acks.add(producer.send(r));
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

    /** As {@link #send}, gzip-compressed, for records up to {@code maxRequestBytes} before compression. */
    public static List<RecordMetadata> sendGzip(List<ProducerRecord<byte[], byte[]>> records, int maxRequestBytes) {
        return sendCompressed("gzip", records, maxRequestBytes);
    }

    /** As {@link #send}, compressed with {@code type}, for records up to {@code maxRequestBytes} before compression. */
    public static List<RecordMetadata> sendCompressed(
            String type, List<ProducerRecord<byte[], byte[]>> records, int maxRequestBytes) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, type);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRequestBytes);
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 2L * maxRequestBytes + 32 * 1024 * 1024);
        // one record per request: the compressed batch of each must fit the topic's limit on its own
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 16 * 1024);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<RecordMetadata> out = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> r : records) {
                out.add(producer.send(r).get());
            }
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("could not produce", e);
        }
    }

    private static Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        return Admin.create(p);
    }

    /** Sets one config of a topic. */
    public static void setTopicConfig(String topic, String name, String value) {
        try (Admin admin = admin()) {
            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, topic),
                            List.of(new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not set " + name + " of " + topic, e);
        }
    }

    /** The value of one config of a topic, as the broker describes it. */
    public static String topicConfig(String topic, String name) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = admin()) {
            return admin.describeConfigs(List.of(resource))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get(resource)
                    .get(name)
                    .value();
        } catch (Exception e) {
            throw new IllegalStateException("could not describe " + topic, e);
        }
    }

    /** Deletes a topic and creates it again under the same name: a new incarnation whose offsets start at 0. */
    public static void recreate(String topic, int partitions, Map<String, String> configs) {
        try (Admin admin = admin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (true) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(configs)))
                            .all()
                            .get(30, TimeUnit.SECONDS);
                    return;
                } catch (java.util.concurrent.ExecutionException e) {
                    // the deletion is still under way
                    if (!(e.getCause() instanceof TopicExistsException) || System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.onSpinWait();
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not recreate " + topic, e);
        }
    }

    /** The offset the group has committed for a partition, -1 when none. */
    public static long committed(String group, TopicPartition tp) {
        try (Admin admin = admin()) {
            OffsetAndMetadata o = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS)
                    .get(tp);
            return o == null ? -1 : o.offset();
        } catch (Exception e) {
            throw new IllegalStateException("could not read the offsets of " + group, e);
        }
    }

    /** Every record now on a topic, read from the beginning of every partition to its current end. */
    public static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<byte[], byte[]> c =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .collect(Collectors.toList());
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end");
                }
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }
}
