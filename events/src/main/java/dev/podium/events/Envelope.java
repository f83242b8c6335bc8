package dev.podium.events;

import java.time.Instant;
import java.util.UUID;

/**
 * The v1 envelope every event travels in. {@code agentId} names the writer of agent streams and is null for command-side
 * streams; {@code occurredAt} is the writer's clock and only informational.
 */
public record Envelope(
        UUID eventId,
        EventType type,
        int schemaVersion,
        String streamId,
        long seq,
        String agentId,
        Instant occurredAt,
        Event payload) {

    public static final int CURRENT_SCHEMA_VERSION = 1;

    /** An envelope for a new event at the current schema version; the type follows from the payload. */
    public static Envelope of(
            UUID eventId, StreamId streamId, long seq, String agentId, Instant occurredAt, Event payload) {
        return new Envelope(
                eventId,
                EventType.of(payload),
                CURRENT_SCHEMA_VERSION,
                streamId.value(),
                seq,
                agentId,
                occurredAt,
                payload);
    }
}
