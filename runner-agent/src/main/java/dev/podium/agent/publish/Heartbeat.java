package dev.podium.agent.publish;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.UUID;

/**
 * A heartbeat on {@code podium.heartbeats} (key = agent id, signed in the heartbeat domain). Not an event: it carries the
 * fields of ingest's {@code agent_status} table, snake_case, and is not kept in the event store. {@code seq} counts the
 * heartbeats of this boot from 1, so that ingest can tell a replayed one from a new one.
 */
public record Heartbeat(
        String agentId,
        UUID bootId,
        String pool,
        String state,
        UUID currentJobId,
        UUID currentRunId,
        Integer leaseEpoch,
        String deviceId,
        String hostname,
        JsonNode sensors,
        Instant sentAt,
        long seq) {}
