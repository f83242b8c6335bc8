package dev.podium.ingest.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/** An in-JVM KRaft broker (one combined node) for the test run. */
public class KafkaResource implements QuarkusTestResourceLifecycleManager {

    private KafkaClusterTestKit cluster;

    @Override
    public Map<String, String> start() {
        try {
            cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                            .setCombined(true)
                            .setNumBrokerNodes(1)
                            .setNumControllerNodes(1)
                            .build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("offsets.topic.num.partitions", "4")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
        } catch (Exception e) {
            throw new IllegalStateException("in-JVM Kafka did not start", e);
        }
        return Map.of("kafka.bootstrap.servers", cluster.bootstrapServers());
    }

    @Override
    public void stop() {
        if (cluster != null) {
            try {
                cluster.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
