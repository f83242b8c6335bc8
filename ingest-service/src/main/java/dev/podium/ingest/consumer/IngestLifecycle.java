package dev.podium.ingest.consumer;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.heartbeat.HeartbeatConsumer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** At start (after Flyway migrated the schema): create missing topics, then start the consumers; stop them at shutdown. */
@ApplicationScoped
public class IngestLifecycle {

    private final IngestConfig config;
    private final TopicSetup topics;
    private final EventConsumer events;
    private final HeartbeatConsumer heartbeats;

    public IngestLifecycle(IngestConfig config, TopicSetup topics, EventConsumer events, HeartbeatConsumer heartbeats) {
        this.config = config;
        this.topics = topics;
        this.events = events;
        this.heartbeats = heartbeats;
    }

    void onStart(@Observes StartupEvent ev) throws Exception {
        if (config.topics().create()) {
            topics.ensureTopics();
        }
        if (config.consumer().enabled()) {
            events.start();
            heartbeats.start();
        }
    }

    void onStop(@Observes ShutdownEvent ev) {
        events.stop();
        heartbeats.stop();
    }
}
