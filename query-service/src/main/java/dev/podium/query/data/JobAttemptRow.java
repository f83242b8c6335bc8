package dev.podium.query.data;

import java.time.Instant;
import java.util.UUID;

/** One grant of a job (one lease epoch): the run and agent it went to, when, and what became of that run. */
public record JobAttemptRow(
        UUID jobId,
        int leaseEpoch,
        UUID runId,
        String agentId,
        Instant grantedAt,
        String runStatus,
        Instant runStartedAt,
        Instant runFinishedAt) {}
