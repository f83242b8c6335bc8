package dev.podium.ingest.entity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@code agent_key}: an agent's signing key, its secret sealed under the master key. Admin commands issue, retire and
 * revoke keys here; the batch's verifier reads them on its own connection ({@code AgentKeyStore}).
 */
@Entity
@Table(name = "agent_key")
public class AgentKeyEntity extends PanacheEntityBase {

    public static final String ACTIVE = "active";
    public static final String RETIRED = "retired";
    public static final String REVOKED = "revoked";

    @Id
    @Column(name = "key_id")
    public String keyId;

    @Column(name = "agent_id", nullable = false)
    public String agentId;

    @Column(name = "secret_ciphertext", nullable = false)
    public byte[] secretCiphertext;

    @Column(name = "secret_nonce", nullable = false)
    public byte[] secretNonce;

    @Column(name = "status", nullable = false)
    public String status;

    @Column(name = "issued_at", insertable = false, updatable = false)
    public Instant issuedAt;

    @Column(name = "issued_by", nullable = false)
    public String issuedBy;

    @Column(name = "retired_at")
    public Instant retiredAt;

    @Column(name = "revoked_at")
    public Instant revokedAt;

    @Column(name = "revoked_by")
    public String revokedBy;

    @Column(name = "pool")
    public String pool;

    /** The password of the key's Kafka identity, sealed like the secret; null on keys issued before V110. */
    @Column(name = "kafka_password_ciphertext")
    public byte[] kafkaPasswordCiphertext;

    @Column(name = "kafka_password_nonce")
    public byte[] kafkaPasswordNonce;

    /** The agent's active keys, locked for this transaction (a rotation retires them). */
    public static List<AgentKeyEntity> lockActive(String agentId) {
        return find("agentId = ?1 and status = ?2", agentId, ACTIVE)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .list();
    }

    public static boolean hasActive(String agentId) {
        return count("agentId = ?1 and status = ?2", agentId, ACTIVE) > 0;
    }

    /** The pool bound to the agent's newest key that is not revoked; empty when none has one. */
    public static Optional<String> poolOf(String agentId) {
        return find("agentId = ?1 and status <> ?2 order by issuedAt desc, keyId desc", agentId, REVOKED)
                .<AgentKeyEntity>firstResultOptional()
                .map(k -> k.pool);
    }
}
