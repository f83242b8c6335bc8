package dev.podium.agent.support;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/** A real single-node KRaft broker in the test JVM, with the agent's topics. */
public final class KafkaBroker implements AutoCloseable {

    private final KafkaClusterTestKit cluster;

    private KafkaBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    public static KafkaBroker start() throws Exception {
        // The broker logs every partition change at INFO; the root logger is held by the LogManager, so this sticks.
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        java.util.logging.Logger.getLogger("org.apache.kafka").setLevel(java.util.logging.Level.SEVERE);
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                        .setCombined(true)
                        .setNumBrokerNodes(1)
                        .setNumControllerNodes(1)
                        .build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        KafkaBroker broker = new KafkaBroker(cluster);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            admin.createTopics(List.of(
                            new NewTopic("podium.events", 3, (short) 1),
                            new NewTopic("podium.heartbeats", 1, (short) 1),
                            new NewTopic("podium.jobs", 3, (short) 1)))
                    .all()
                    .get();
        }
        return broker;
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    public KafkaClusterTestKit cluster() {
        return cluster;
    }

    /** Every record of the topic, once at least {@code atLeast} are there. */
    public List<ConsumerRecord<String, byte[]>> records(String topic, int atLeast, Duration timeout) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c =
                new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .collect(Collectors.toList());
            c.assign(parts);
            c.seekToBeginning(parts);
            // Read up to the end offsets as they are now (the agent exits only after its records are acknowledged),
            // and on until at least the expected number arrived.
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            await().atMost(timeout).until(() -> {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
                boolean atEnd = end.entrySet().stream().allMatch(e -> c.position(e.getKey()) >= e.getValue());
                return atEnd && out.size() >= atLeast;
            });
            // Anything beyond the expected count (a duplicate) must show up too.
            c.poll(Duration.ofMillis(300)).forEach(out::add);
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
