package dev.podium.ingest.history;

import java.time.Instant;
import java.util.UUID;

/** One point of a history: a counted, valid run's mean, with what a change point shows of that run. */
record HistoryPoint(
        UUID runId,
        String benchmark,
        String unit,
        String direction,
        Instant startedAt,
        double mean,
        String frameworkVersion) {}
