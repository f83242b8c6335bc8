package dev.podium.ingest.consumer;

import dev.podium.ingest.command.JobTimers;
import dev.podium.ingest.command.MasterKeyCheck;
import dev.podium.ingest.command.OutboxRelay;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.heartbeat.HeartbeatConsumer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** At start (after Flyway migrated the schema): check that the master key opens the stored keys, create missing topics,
 * then start the consumers, the outbox relay, the lease reaper and the campaign schedule; stop them at shutdown. */
@ApplicationScoped
public class IngestLifecycle {

    private final IngestConfig config;
    private final TopicSetup topics;
    private final EventConsumer events;
    private final HeartbeatConsumer heartbeats;
    private final OutboxRelay relay;
    private final JobTimers timers;
    private final MasterKeyCheck masterKey;

    public IngestLifecycle(
            IngestConfig config,
            TopicSetup topics,
            EventConsumer events,
            HeartbeatConsumer heartbeats,
            OutboxRelay relay,
            JobTimers timers,
            MasterKeyCheck masterKey) {
        this.config = config;
        this.topics = topics;
        this.events = events;
        this.heartbeats = heartbeats;
        this.relay = relay;
        this.timers = timers;
        this.masterKey = masterKey;
    }

    void onStart(@Observes StartupEvent ev) throws Exception {
        masterKey.check();
        if (config.topics().create()) {
            topics.ensureTopics();
        }
        if (config.consumer().enabled()) {
            events.start();
            heartbeats.start();
        }
        if (config.jobs().enabled()) {
            relay.start();
            // Without a heartbeat consumer here there is nothing of ours to wait for: the reaper waits one lease only.
            timers.start(config.consumer().enabled() ? heartbeats::caughtUp : () -> true);
        }
    }

    void onStop(@Observes ShutdownEvent ev) {
        events.stop();
        heartbeats.stop();
        timers.stop();
        relay.stop();
    }
}
