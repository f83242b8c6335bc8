package dev.podium.ingest.entity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Optional;

/** {@code command_key}: the command side's Ed25519 key for podium.jobs, its private half sealed under the master key. */
@Entity
@Table(name = "command_key")
public class CommandKeyEntity extends PanacheEntityBase {

    public static final String ACTIVE = "active";

    @Id
    @Column(name = "key_id")
    public String keyId;

    @Column(name = "public_key", nullable = false)
    public byte[] publicKey;

    @Column(name = "private_ciphertext", nullable = false)
    public byte[] privateCiphertext;

    @Column(name = "private_nonce", nullable = false)
    public byte[] privateNonce;

    @Column(name = "status", nullable = false)
    public String status;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    /** The one active key (a unique index keeps it one); empty before the first instance made it. */
    public static Optional<CommandKeyEntity> active() {
        return find("status", ACTIVE).firstResultOptional();
    }
}
