package dev.podium.ingest.heartbeat;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * The body of a record on {@code podium.heartbeats} (JSON, snake_case, UTF-8; key = agent id; the {@code podium-key-id}
 * and {@code podium-signature} headers, the signature in the heartbeat domain, {@code EventSigner.signHeartbeat}). Only
 * {@code agent_id} is required. {@code seq} counts the heartbeats of a boot; a heartbeat not newer than the last one
 * stored for its agent (same boot and a seq not above it, or else a {@code sent_at} not after it) is a replay. {@code state} is e.g. idle, claiming, running, draining; {@code sensors} maps a sensor name (e.g.
 * {@code gpu0_temp_c}, {@code power_w}) to a finite number. {@code sent_at} is informational: ingest records its own time.
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
        Map<String, Double> sensors,
        Instant sentAt,
        Long seq) {

    public static final int MAX_BYTES = 64 * 1024;
    public static final int MAX_STRING = 256;
    public static final int MAX_SENSORS = 128;

    /** What ingest last stored of an agent's heartbeats. */
    public record Last(UUID bootId, Long seq, Instant sentAt) {}

    /** Whether this heartbeat is newer than {@code last} (null: none stored yet); one that is not renews nothing. */
    public boolean newerThan(Last last) {
        if (last == null) {
            return true;
        }
        if (bootId != null && bootId.equals(last.bootId()) && seq != null && last.seq() != null) {
            return seq > last.seq();
        }
        return sentAt != null && (last.sentAt() == null || sentAt.isAfter(last.sentAt()));
    }

    /** Why this heartbeat may not be stored, or null when it may. */
    public String problem() {
        if (agentId == null || agentId.isBlank()) {
            return "agent_id missing";
        }
        for (String s : new String[] {agentId, pool, state, deviceId, hostname}) {
            if (s != null && (s.length() > MAX_STRING || s.indexOf('\u0000') >= 0)) {
                return "a string is over " + MAX_STRING + " characters or contains \\u0000";
            }
        }
        if (leaseEpoch != null && leaseEpoch < 0) {
            return "lease_epoch is negative";
        }
        if (seq != null && seq < 1) {
            return "seq is not positive";
        }
        if (sensors != null) {
            if (sensors.size() > MAX_SENSORS) {
                return "more than " + MAX_SENSORS + " sensors";
            }
            for (Map.Entry<String, Double> e : sensors.entrySet()) {
                if (e.getKey().length() > MAX_STRING
                        || e.getKey().indexOf('\u0000') >= 0
                        || e.getValue() == null
                        || !Double.isFinite(e.getValue())) {
                    return "sensor '" + e.getKey() + "' has a bad name or a value that is not a finite number";
                }
            }
        }
        return null;
    }
}
