package dev.podium.events.run;

import dev.podium.events.validate.Nullable;
import java.util.UUID;

/**
 * An agent offers to run a requested job, as the first event of a new run stream. The run counts only once the command
 * side grants the job to this run with {@code JobAssigned}.
 */
public record JobClaimed(
        UUID runId, UUID jobId, String agentId, @Nullable String pool) implements RunEvent {}
