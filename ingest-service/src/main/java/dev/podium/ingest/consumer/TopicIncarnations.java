package dev.podium.ingest.consumer;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.config.KafkaLogin;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Kafka's id of each topic ingest reads. Offsets start again at 0 in a recreated topic or on a new broker, so a
 * refusal is identified by the topic's id with its partition and offset. Asked of the broker for every batch that
 * refuses a record, not cached: a consumer is not told when a topic it reads is recreated under the same name, and
 * refusals are rare enough for one round trip each time.
 */
@ApplicationScoped
public class TopicIncarnations {

    private final IngestConfig config;
    private volatile Admin admin;

    public TopicIncarnations(IngestConfig config) {
        this.config = config;
    }

    /** The id of {@code topic} as the broker knows it now. */
    public String of(String topic) throws InterruptedException, ExecutionException, TimeoutException {
        return admin().describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId()
                .toString();
    }

    private Admin admin() {
        if (admin == null) {
            synchronized (this) {
                if (admin == null) {
                    Properties p = new Properties();
                    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
                    KafkaLogin.apply(config, p);
                    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "podium-ingest-topics");
                    admin = Admin.create(p);
                }
            }
        }
        return admin;
    }

    @PreDestroy
    void close() {
        if (admin != null) {
            admin.close();
        }
    }
}
