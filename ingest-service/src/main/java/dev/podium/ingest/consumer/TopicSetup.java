package dev.podium.ingest.consumer;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.config.KafkaLogin;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jboss.logging.Logger;

/**
 * Creates Podium's topics when they are missing; existing topics are left as they are, but for the dead-letter topic's
 * bounds ({@link #DLQ_CONFIGS}), set on every start so that an older deployment's DLQ gets them too.
 */
@ApplicationScoped
public class TopicSetup {

    private static final Logger LOG = Logger.getLogger(TopicSetup.class);
    private static final String ONE_MIB = Integer.toString(1024 * 1024);
    private static final String LOG_APPEND_TIME = "LogAppendTime";

    /**
     * The DLQ holds copies (a refused record whole only when its signature verified, else a 64 KiB prefix), compressed,
     * for a week and at most 256 MiB a partition: a flood of refusals cannot fill the broker's disk. Their counts stay in
     * {@code rejected_count}.
     */
    public static final Map<String, String> DLQ_CONFIGS = Map.of(
            TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(3 * 1024 * 1024),
            TopicConfig.RETENTION_MS_CONFIG, Long.toString(Duration.ofDays(7).toMillis()),
            TopicConfig.RETENTION_BYTES_CONFIG, Long.toString(256L * 1024 * 1024),
            TopicConfig.COMPRESSION_TYPE_CONFIG, "zstd");

    private final IngestConfig config;

    public TopicSetup(IngestConfig config) {
        this.config = config;
    }

    public void ensureTopics() throws InterruptedException, ExecutionException, TimeoutException {
        IngestConfig.Topics t = config.topics();
        short rf = t.replicationFactor();
        // The broker stamps agents' records with its own time: a retired key's grace is judged by a time they cannot
        // set.
        List<NewTopic> wanted = List.of(
                new NewTopic(t.events(), t.eventsPartitions(), rf)
                        .configs(Map.of(
                                TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                                ONE_MIB,
                                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG,
                                LOG_APPEND_TIME)),
                new NewTopic(t.dlq(), 3, rf).configs(DLQ_CONFIGS),
                new NewTopic(t.heartbeats(), 3, rf)
                        .configs(Map.of(
                                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                                TopicConfig.MAX_MESSAGE_BYTES_CONFIG, ONE_MIB,
                                TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, LOG_APPEND_TIME)),
                new NewTopic(t.jobs(), 3, rf).configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, ONE_MIB)));
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        KafkaLogin.apply(config, p);
        try (Admin admin = Admin.create(p)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (NewTopic topic : wanted) {
                if (!existing.contains(topic.name())) {
                    missing.add(topic);
                }
            }
            if (!missing.isEmpty()) {
                create(admin, missing);
            }
            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, t.dlq()),
                            DLQ_CONFIGS.entrySet().stream()
                                    .map(e -> new AlterConfigOp(
                                            new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET))
                                    .toList()))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
    }

    private static void create(Admin admin, List<NewTopic> missing)
            throws InterruptedException, ExecutionException, TimeoutException {
        for (var entry : admin.createTopics(missing).values().entrySet()) {
            try {
                entry.getValue().get(30, TimeUnit.SECONDS);
                LOG.infof("created topic %s", entry.getKey());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        }
    }
}
