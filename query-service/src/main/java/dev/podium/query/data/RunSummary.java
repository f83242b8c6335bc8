package dev.podium.query.data;

import java.time.Instant;
import java.util.UUID;

/** A run in a list. */
public record RunSummary(
        UUID runId,
        String benchmark,
        String keyId,
        String deviceId,
        Integer deviceCount,
        String agentId,
        String status,
        Boolean valid,
        boolean retracted,
        Instant startedAt,
        Double durationSeconds) {}
