package dev.podium.ingest.command;

import dev.podium.events.Envelope;
import dev.podium.events.Event;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobEvent;
import dev.podium.events.sign.CommandSignature;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.store.Appended;
import dev.podium.ingest.store.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.ToIntFunction;

/**
 * Appends the events the command side decides about jobs (projections included) on the caller's connection, and makes
 * the records for {@code podium.jobs} of those agents act on, each signed by the {@link CommandKey} for its lease epoch.
 * The caller puts the records in the outbox in the same transaction.
 */
@ApplicationScoped
public class CommandLog {

    private final CommandAppender appender;
    private final CommandKey commandKey;
    private final IngestConfig config;
    private final EventCodec codec = new EventCodec();

    public CommandLog(CommandAppender appender, CommandKey commandKey, IngestConfig config) {
        this.appender = appender;
        this.commandKey = commandKey;
        this.config = config;
    }

    /**
     * The records of the job events among {@code events}: a grant's or expiry's epoch is its payload's, any other's
     * (requests, cancels) is {@code rowEpoch} of its job, the job row as this transaction leaves it.
     */
    public List<Outbox.Record> append(Connection c, List<Envelope> events, String writer, ToIntFunction<UUID> rowEpoch)
            throws SQLException {
        if (events.isEmpty()) {
            return List.of();
        }
        List<Appended> appended = appender.append(c, events, writer);
        List<Outbox.Record> records = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            if (!(appended.get(i) instanceof Appended.Inserted)) {
                // The job row's lock orders its stream; anything else is a bug that must not reach agents.
                throw new IllegalStateException("command event " + events.get(i).eventId() + " on "
                        + events.get(i).streamId() + " was not appended: " + appended.get(i));
            }
            Event payload = events.get(i).payload();
            if (payload instanceof JobEvent job) {
                Integer stated = CommandSignature.epochInPayload(job);
                int epoch = stated != null ? stated : rowEpoch.applyAsInt(job.jobId());
                byte[] value = codec.encode(events.get(i));
                records.add(new Outbox.Record(
                        config.topics().jobs(), job.jobId().toString(), value, commandKey.headers(job, epoch, value)));
            }
        }
        return records;
    }
}
