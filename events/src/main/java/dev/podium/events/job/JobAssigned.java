package dev.podium.events.job;

import dev.podium.events.secret.SealedSecrets;
import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.time.Instant;
import java.util.UUID;

/**
 * The command side grants a job to the first claim: the agent and run that claimed it, and the lease epoch. Events of the
 * run from an earlier epoch of the same job are superseded. {@code secrets} carries the campaign's secret environment,
 * sealed for the granted agent's key (null when the campaign has none).
 */
public record JobAssigned(
        UUID jobId,
        UUID runId,
        String agentId,
        @NonNegative int leaseEpoch,
        @Nullable Instant leaseExpiresAt,
        @Nullable SealedSecrets secrets)
        implements JobEvent {

    /** A grant without secrets. */
    public JobAssigned(UUID jobId, UUID runId, String agentId, int leaseEpoch, Instant leaseExpiresAt) {
        this(jobId, runId, agentId, leaseEpoch, leaseExpiresAt, null);
    }
}
