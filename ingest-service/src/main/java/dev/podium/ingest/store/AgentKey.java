package dev.podium.ingest.store;

import java.time.Instant;
import java.util.Locale;

/**
 * A stored agent key with its secret decrypted, for verification only; never serialised. {@code pool} is the pool bound
 * to it at issue (null for keys from before pools were bound); {@code graceEndsAt}, for a key a rotation retired, is the
 * end of its grace period (retired at + {@code podium.ingest.keys.retiring-grace}).
 */
public record AgentKey(String keyId, String agentId, Status status, byte[] secret, String pool, Instant graceEndsAt) {

    public enum Status {
        ACTIVE,
        RETIRED,
        REVOKED;

        public String sql() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Status fromSql(String s) {
            return valueOf(s.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * Whether the key verifies a record the broker appended (or ingest first read) at {@code recordTime}: an active key
     * does; a retired key only during its grace period after the rotation, judged by that time, which the writer
     * cannot set; a revoked key never.
     */
    public boolean verifiesAt(Instant recordTime) {
        return switch (status) {
            case ACTIVE -> true;
            case RETIRED -> graceEndsAt != null && recordTime.isBefore(graceEndsAt);
            case REVOKED -> false;
        };
    }

    @Override
    public String toString() {
        return "AgentKey[" + keyId + ", " + agentId + ", " + status + "]";
    }
}
