package dev.podium.events.admin;

import dev.podium.events.validate.Text;
import java.util.UUID;

/** A run's results are withdrawn from leaderboards and comparisons; the run's own events stay as they were. */
public record ResultRetracted(UUID runId, @Text String reason, String actor) implements AdminEvent {}
