package dev.podium.events.job;

import dev.podium.events.validate.NonNegative;
import java.util.UUID;

/** The agent holding a job went silent past its lease; the job is offered again under a new epoch. */
public record JobLeaseExpired(
        UUID jobId, UUID runId, String agentId, @NonNegative int leaseEpoch) implements JobEvent {}
