package dev.podium.ingest.command.request;

import jakarta.validation.constraints.NotNull;

/** Body of {@code POST /admin/agents}; {@code pool}, bound to the key, defaults to {@value #DEFAULT_POOL}. */
public record RegisterAgentRequest(
        @NotNull @AgentId String agentId, @PoolName String pool) implements AdminRequest {

    public static final String DEFAULT_POOL = "default";

    public String poolOrDefault() {
        return pool == null ? DEFAULT_POOL : pool;
    }
}
