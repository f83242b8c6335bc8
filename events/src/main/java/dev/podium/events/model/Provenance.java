package dev.podium.events.model;

import dev.podium.events.validate.Nullable;

/** Who produced a result and how: the agent, its version, and the parser that read the workload's output. */
public record Provenance(
        String agentId, String agentVersion, @Nullable String parser) {}
