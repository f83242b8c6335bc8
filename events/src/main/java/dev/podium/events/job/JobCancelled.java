package dev.podium.events.job;

import dev.podium.events.validate.Nullable;
import java.util.UUID;

/** An admin cancelled a job; the agent running it stops. {@code actor} is the admin token's name. */
public record JobCancelled(UUID jobId, @Nullable String reason, String actor) implements JobEvent {}
