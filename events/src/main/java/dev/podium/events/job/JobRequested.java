package dev.podium.events.job;

import dev.podium.events.model.JobSpec;
import dev.podium.events.validate.Nullable;
import java.util.UUID;

/** A job is offered to the agents of a pool; {@code campaignId} is null for a job outside a campaign. */
public record JobRequested(UUID jobId, @Nullable UUID campaignId, String pool, JobSpec spec) implements JobEvent {}
