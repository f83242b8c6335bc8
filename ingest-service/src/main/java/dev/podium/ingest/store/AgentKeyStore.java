package dev.podium.ingest.store;

import dev.podium.events.sign.EventSigner;
import dev.podium.ingest.config.IngestConfig;
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
 * The {@code agent_key} table: keys are issued with a fresh secret that leaves this class once, to the caller that
 * returns it to the admin; at rest only its AES-GCM ciphertext is kept.
 */
@ApplicationScoped
public class AgentKeyStore {

    private static final Logger LOG = Logger.getLogger(AgentKeyStore.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A newly issued key and its secret in the textual form agents keep. */
    public record Issued(String keyId, String agentId, String secret) {}

    private final SecretCipher cipher;
    private final Duration retiringGrace;

    public AgentKeyStore(IngestConfig config) {
        this.cipher = new SecretCipher(config.masterKey());
        this.retiringGrace = config.keys().retiringGrace();
    }

    /** Issues a key bound to {@code pool}: the only pool whose jobs the agent's claims are granted. */
    public Issued issue(Connection c, String agentId, String pool, String issuedBy) throws SQLException {
        byte[] id = new byte[12];
        RANDOM.nextBytes(id);
        String keyId = "pk_" + HexFormat.of().formatHex(id);
        String secret = EventSigner.newSecret();
        SecretCipher.Sealed sealed = cipher.seal(keyId, EventSigner.secretBytes(secret));
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO agent_key (key_id, agent_id, secret_ciphertext, secret_nonce, status, issued_by, pool)
                VALUES (?, ?, ?, ?, 'active', ?, ?)""")) {
            ps.setString(1, keyId);
            ps.setString(2, agentId);
            ps.setBytes(3, sealed.ciphertext());
            ps.setBytes(4, sealed.nonce());
            ps.setString(5, issuedBy);
            ps.setString(6, pool);
            ps.executeUpdate();
        }
        return new Issued(keyId, agentId, secret);
    }

    /**
     * Retires the agent's active key (it verifies what the broker appends during the grace period, then nothing); the
     * ids of the keys retired.
     */
    public List<String> retireActive(Connection c, String agentId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE agent_key SET status = 'retired', retired_at = clock_timestamp()
                WHERE agent_id = ? AND status = 'active' RETURNING key_id""")) {
            ps.setString(1, agentId);
            return keyIds(ps);
        }
    }

    /** Revokes a key that is not revoked yet; the agent it belonged to, or empty when there was nothing to revoke. */
    public Optional<String> revoke(Connection c, String keyId, String revokedBy) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE agent_key SET status = 'revoked', revoked_at = clock_timestamp(), revoked_by = ?
                WHERE key_id = ? AND status <> 'revoked' RETURNING agent_id""")) {
            ps.setString(1, revokedBy);
            ps.setString(2, keyId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    public Optional<String> status(Connection c, String keyId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT status FROM agent_key WHERE key_id = ?")) {
            ps.setString(1, keyId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** The pool bound to the agent's newest key that is not revoked; empty when none has one. */
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

    public boolean hasActiveKey(Connection c, String agentId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT 1 FROM agent_key WHERE agent_id = ? AND status = 'active' LIMIT 1")) {
            ps.setString(1, agentId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
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

    private static List<String> keyIds(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            List<String> ids = new ArrayList<>();
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
            return ids;
        }
    }
}
