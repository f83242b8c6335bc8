package dev.podium.events.job;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.time.Instant;
import java.util.UUID;

/**
 * The command side grants a job to the first claim: the agent and run that claimed it, and the lease epoch. Events of the
 * run from an earlier epoch of the same job are superseded.
 */
public record JobAssigned(UUID jobId, UUID runId, String agentId, @NonNegative int leaseEpoch, @Nullable Instant leaseExpiresAt)
        implements JobEvent {
}
