package dev.podium.query.data;

import java.time.Instant;

/** One event of a run's stream, from the event store. */
public record EventRow(
        long seq,
        String type,
        int schemaVersion,
        String writer,
        Instant occurredAt,
        Instant recordedAt,
        String payload) {}
