package dev.podium.ingest.store;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.podium.events.sign.EventSigner;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.entity.AgentKeyEntity;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The {@code agent_key} table (entity {@link AgentKeyEntity}): keys are issued with a fresh secret that leaves this class once, to the caller that
 * returns it to the admin; at rest only its AES-GCM ciphertext is kept. Admin commands issue keys as entities; the
 * ingest batch looks keys up on its own connection, in its transaction.
 */
@ApplicationScoped
public class AgentKeyStore {

    private static final Logger LOG = Logger.getLogger(AgentKeyStore.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * A newly issued key, its secret in the textual form agents keep, and the password of its Kafka identity (user
     * {@code keyId}).
     */
    public record Issued(String keyId, String agentId, String secret, String kafkaPassword) {}

    private final SecretCipher cipher;
    private final Duration retiringGrace;

    public AgentKeyStore(IngestConfig config) {
        this.cipher = new SecretCipher(config.masterKey());
        this.retiringGrace = config.keys().retiringGrace();
    }

    /** Issues a key bound to {@code pool} in the caller's JTA transaction: the only pool whose jobs it is granted. */
    public Issued issue(String agentId, String pool, String issuedBy) {
        byte[] id = new byte[12];
        RANDOM.nextBytes(id);
        String keyId = "pk_" + HexFormat.of().formatHex(id);
        String secret = EventSigner.newSecret();
        SecretCipher.Sealed sealed = cipher.seal(keyId, EventSigner.secretBytes(secret));
        AgentKeyEntity key = new AgentKeyEntity();
        key.keyId = keyId;
        key.agentId = agentId;
        key.secretCiphertext = sealed.ciphertext();
        key.secretNonce = sealed.nonce();
        key.status = AgentKeyEntity.ACTIVE;
        key.issuedBy = issuedBy;
        key.pool = pool;
        String kafkaPassword = EventSigner.newSecret();
        SecretCipher.Sealed sealedPassword = cipher.seal(kafkaAssociatedData(keyId), kafkaPassword.getBytes(UTF_8));
        key.kafkaPasswordCiphertext = sealedPassword.ciphertext();
        key.kafkaPasswordNonce = sealedPassword.nonce();
        key.persist();
        return new Issued(keyId, agentId, secret, kafkaPassword);
    }

    /** Distinct from the key id alone, so the sealed password and the sealed secret of one key cannot stand in for each other. */
    private static String kafkaAssociatedData(String keyId) {
        return "kafka/" + keyId;
    }

    /**
     * The Kafka identities the broker should hold: each key that still verifies records (active, or retired within
     * the grace) and has a password, by key id, with its password opened. A password that does not open is left out and
     * logged, so its identity is removed rather than left with a password nobody knows.
     */
    public Map<String, String> kafkaIdentities(Connection c) throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT key_id, kafka_password_ciphertext, kafka_password_nonce FROM agent_key
                WHERE kafka_password_ciphertext IS NOT NULL
                  AND (status = 'active'
                       OR (status = 'retired' AND retired_at > clock_timestamp() - make_interval(secs => ?)))""")) {
            ps.setLong(1, retiringGrace.toSeconds());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String keyId = rs.getString(1);
                    try {
                        byte[] password = cipher.open(kafkaAssociatedData(keyId), rs.getBytes(2), rs.getBytes(3));
                        out.put(keyId, new String(password, UTF_8));
                    } catch (GeneralSecurityException e) {
                        LOG.errorf("the Kafka password of agent key %s does not decrypt under the master key", keyId);
                    }
                }
            }
        }
        return out;
    }

    /**
     * The pool bound to the agent's newest key that is not revoked; empty when none has one. On the ingest batch's
     * connection, for a grant ({@link AgentKeyEntity#poolOf} in admin commands).
     */
    public Optional<String> pool(Connection c, String agentId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT pool FROM agent_key WHERE agent_id = ? AND status <> 'revoked'
                ORDER BY issued_at DESC, key_id DESC LIMIT 1""")) {
            ps.setString(1, agentId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /**
     * The ids of the keys that still verify (not revoked) whose secret does not open under the configured master key:
     * none unless the master key is not the one the database was sealed under.
     */
    public List<String> undecryptable(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                        "SELECT key_id, secret_ciphertext, secret_nonce FROM agent_key WHERE status <> 'revoked'"
                                + " ORDER BY key_id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                try {
                    cipher.open(rs.getString("key_id"), rs.getBytes("secret_ciphertext"), rs.getBytes("secret_nonce"));
                } catch (GeneralSecurityException e) {
                    out.add(rs.getString("key_id"));
                }
            }
        }
        return out;
    }

    /** The agent's active key with its secret decrypted; empty when it has none or it does not decrypt. */
    public Optional<AgentKey> active(Connection c, String agentId) throws SQLException {
        String keyId;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT key_id FROM agent_key WHERE agent_id = ? AND status = 'active' ORDER BY issued_at DESC LIMIT 1")) {
            ps.setString(1, agentId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                keyId = rs.getString(1);
            }
        }
        return Optional.ofNullable(lookup(c, List.of(keyId)).get(keyId));
    }

    /**
     * The keys with these ids, secrets decrypted. A key whose ciphertext does not open under the master key is left out
     * (and logged), so events signed with it are rejected as signed by an unknown key.
     */
    public Map<String, AgentKey> lookup(Connection c, Collection<String> keyIds) throws SQLException {
        Map<String, AgentKey> out = new HashMap<>();
        if (keyIds.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT key_id, agent_id, status, secret_ciphertext, secret_nonce, pool, retired_at FROM agent_key
                WHERE key_id = ANY(?)""")) {
            ps.setArray(1, c.createArrayOf("text", keyIds.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String keyId = rs.getString(1);
                    try {
                        byte[] secret = cipher.open(keyId, rs.getBytes(4), rs.getBytes(5));
                        Timestamp retired = rs.getTimestamp(7);
                        out.put(
                                keyId,
                                new AgentKey(
                                        keyId,
                                        rs.getString(2),
                                        AgentKey.Status.fromSql(rs.getString(3)),
                                        secret,
                                        rs.getString(6),
                                        retired == null
                                                ? null
                                                : retired.toInstant().plus(retiringGrace)));
                    } catch (GeneralSecurityException e) {
                        LOG.errorf("agent key %s does not decrypt under the configured master key", keyId);
                    }
                }
            }
        }
        return out;
    }
}
