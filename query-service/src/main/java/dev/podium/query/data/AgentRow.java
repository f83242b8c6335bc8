package dev.podium.query.data;

import java.time.Instant;
import java.util.UUID;

/** An agent as the fleet page shows it; {@code online} is computed at query time from the last heartbeat. */
public record AgentRow(
        String agentId,
        String pool,
        String agentVersion,
        String hostname,
        String deviceId,
        String state,
        UUID currentJobId,
        UUID currentRunId,
        Instant lastHeartbeatAt,
        boolean online) {}
