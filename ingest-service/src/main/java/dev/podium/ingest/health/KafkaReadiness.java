package dev.podium.ingest.health;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.config.KafkaAdmin;
import dev.podium.ingest.consumer.EventConsumer;
import dev.podium.ingest.consumer.Progress;
import dev.podium.ingest.heartbeat.HeartbeatConsumer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the consumer threads are alive (if enabled), the event consumer is not stalled ({@link Progress}) and the broker answers describeCluster within the health
 * timeout. The database has its own readiness check from the datasource extension.
 */
@Readiness
@ApplicationScoped
public class KafkaReadiness implements HealthCheck {

    private final IngestConfig config;
    private final EventConsumer events;
    private final HeartbeatConsumer heartbeats;
    private final Progress progress;
    private final KafkaAdmin admin;

    public KafkaReadiness(
            IngestConfig config,
            EventConsumer events,
            HeartbeatConsumer heartbeats,
            Progress progress,
            KafkaAdmin admin) {
        this.config = config;
        this.events = events;
        this.heartbeats = heartbeats;
        this.progress = progress;
        this.admin = admin;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder b = HealthCheckResponse.named("kafka");
        boolean stalled = config.consumer().enabled()
                && progress.stalled(config.consumer().stallTimeout());
        boolean consumersUp =
                !config.consumer().enabled() || (events.isRunning() && heartbeats.isRunning() && !stalled);
        b.withData("event-consumer", events.isRunning())
                .withData("heartbeat-consumer", heartbeats.isRunning())
                .withData("event-consumer-stalled", stalled);
        long timeout = config.consumer().healthTimeout().toMillis();
        try {
            int nodes = admin.get()
                    .describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout))
                    .nodes()
                    .get(timeout, TimeUnit.MILLISECONDS)
                    .size();
            b.withData("brokers", nodes);
            return b.status(consumersUp && nodes > 0).build();
        } catch (Exception e) {
            return b.withData("error", "broker unreachable: " + e.getClass().getSimpleName())
                    .down()
                    .build();
        }
    }
}
