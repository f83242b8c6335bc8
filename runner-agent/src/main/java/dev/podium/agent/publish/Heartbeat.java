package dev.podium.agent.publish;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.UUID;

/**
 * A heartbeat on {@code podium.heartbeats} (key = agent id, signed like events). Not an event: it carries the fields of
 * ingest's {@code agent_status} table, snake_case, and is not kept in the event store.
 */
public record Heartbeat(String agentId, UUID bootId, String pool, String state, UUID currentJobId, UUID currentRunId,
        Integer leaseEpoch, String deviceId, String hostname, JsonNode sensors, Instant sentAt) {
}
