package dev.podium.ingest.store;

/** A stored agent key with its secret decrypted, for verification only; never serialised. */
public record AgentKey(String keyId, String agentId, Status status, byte[] secret) {

    public enum Status {
        ACTIVE,
        RETIRED,
        REVOKED;

        public String sql() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static Status fromSql(String s) {
            return valueOf(s.toUpperCase(java.util.Locale.ROOT));
        }
    }

    /** Active and retired keys verify; a revoked key verifies nothing. */
    public boolean verifies() {
        return status != Status.REVOKED;
    }

    @Override
    public String toString() {
        return "AgentKey[" + keyId + ", " + agentId + ", " + status + "]";
    }
}
