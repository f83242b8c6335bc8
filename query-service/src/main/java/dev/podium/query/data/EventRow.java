package dev.podium.query.data;

import java.time.Instant;

/** One event of a run's stream: its envelope's columns and ingest's one-line summary of its payload. */
public record EventRow(
        long seq,
        String type,
        int schemaVersion,
        String writer,
        Instant occurredAt,
        Instant recordedAt,
        String summary) {}
