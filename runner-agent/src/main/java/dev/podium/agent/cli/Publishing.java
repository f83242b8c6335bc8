package dev.podium.agent.cli;

import dev.podium.agent.config.AgentSettings;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.publish.EventSink;
import dev.podium.agent.publish.Publisher;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;

/**
 * The journal, the sink and (when Kafka is configured) the publisher of one command. Opening it resends whatever an
 * earlier process left pending; closing it waits for acknowledgements up to the flush timeout.
 */
final class Publishing implements AutoCloseable {

    final Journal journal;
    final EventSink sink;
    final Publisher publisher;
    private final int flushTimeoutSeconds;
    private final PrintStream err;

    Publishing(AgentSettings settings, int flushTimeoutSeconds, PrintStream err) {
        this.journal = new Journal(settings.journalDir(), settings.journalMaxBytes());
        this.sink = new EventSink(journal, settings.agentId(), settings.keyId(), settings.secret(), Clock.systemUTC());
        this.flushTimeoutSeconds = flushTimeoutSeconds;
        this.err = err;
        int pending = journal.pendingCount();
        if (settings.bootstrapServers() != null) {
            this.publisher = new Publisher(journal, settings.bootstrapServers(), settings.kafkaLogin());
            sink.attach(publisher);
            if (pending > 0) {
                err.println("resending " + pending + " journaled events from an earlier run");
            }
        } else {
            this.publisher = null;
            err.println("no Kafka bootstrap servers configured: events are journaled in " + journal.directory()
                    + " and sent when the agent next runs with one");
        }
    }

    /** Waits for acknowledgements; returns the number of entries still pending. */
    int flush() {
        if (publisher == null) {
            return journal.pendingCount();
        }
        try {
            int left = publisher.awaitDelivered(Duration.ofSeconds(flushTimeoutSeconds));
            if (left > 0) {
                err.println(left + " events are not yet acknowledged by Kafka"
                        + (publisher.lastError() == null ? "" : " (" + publisher.lastError() + ")")
                        + "; they stay in the journal at " + journal.directory() + " and are sent on the next start"
                        + " or with `podium-agent journal --flush`");
            }
            return left;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return journal.pendingCount();
        }
    }

    @Override
    public void close() {
        if (publisher != null) {
            publisher.close();
        }
    }
}
