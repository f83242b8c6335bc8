package dev.podium.events.admin;

import dev.podium.events.validate.Nullable;

/** A key was revoked: events signed with it are rejected from now on. */
public record AgentKeyRevoked(
        String agentId, String keyId, @Nullable String reason, String actor) implements AdminEvent {}
