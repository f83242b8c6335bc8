package dev.podium.query.data;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** A job of the command side's {@code job} table, with the status of the run holding (or last holding) its lease. */
public record JobRow(
        UUID jobId,
        UUID campaignId,
        int issue,
        String pool,
        String state,
        int leaseEpoch,
        UUID runId,
        String agentId,
        Instant leaseExpiresAt,
        Map<String, String> parameters,
        String runStatus,
        Instant runStartedAt,
        Instant runFinishedAt,
        Instant createdAt,
        Instant updatedAt) {}
