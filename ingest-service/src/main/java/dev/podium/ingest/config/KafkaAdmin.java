package dev.podium.ingest.config;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** The one Kafka admin client of ingest's checks (readiness, topic ids), created on first use, closed on shutdown. */
@ApplicationScoped
public class KafkaAdmin {

    private final IngestConfig config;
    private volatile Admin admin;

    public KafkaAdmin(IngestConfig config) {
        this.config = config;
    }

    public Admin get() {
        if (admin == null) {
            synchronized (this) {
                if (admin == null) {
                    Properties p = new Properties();
                    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
                    KafkaLogin.apply(config, p);
                    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "podium-ingest-admin");
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
