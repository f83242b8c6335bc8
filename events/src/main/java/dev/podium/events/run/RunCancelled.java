package dev.podium.events.run;

import dev.podium.events.validate.Nullable;
import java.util.UUID;

/** A run was stopped on request (a {@code JobCancelled}, a lease expiry or the operator). */
public record RunCancelled(UUID runId, @Nullable String reason) implements RunEvent {}
