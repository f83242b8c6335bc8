package dev.podium.ingest.command;

import dev.podium.events.job.JobEvent;
import dev.podium.events.sign.CommandSignature;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.store.SecretCipher;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The command side's signing key for {@code podium.jobs} (table {@code command_key}): made by the first instance that
 * needs it, its private half kept encrypted under the master key with "command:" + key id as associated data (so no
 * agent key's ciphertext can pass for it), loaded once per process. Its own connection, committed at once, so that every
 * instance signs with the same key however their transactions interleave.
 */
@ApplicationScoped
public class CommandKey {

    private static final SecureRandom RANDOM = new SecureRandom();

    private record Loaded(String keyId, PublicKey publicKey, PrivateKey privateKey) {}

    private final AgroalDataSource dataSource;
    private final SecretCipher cipher;
    private volatile Loaded loaded;

    public CommandKey(AgroalDataSource dataSource, IngestConfig config) {
        this.dataSource = dataSource;
        this.cipher = new SecretCipher(config.masterKey());
    }

    /** The headers of a job record: its lease epoch and the command signature binding job, run, epoch and value. */
    public Map<String, String> headers(JobEvent event, int epoch, byte[] value) {
        return Map.of(
                CommandSignature.EPOCH_HEADER,
                Integer.toString(epoch),
                CommandSignature.SIGNATURE_HEADER,
                CommandSignature.sign(key().privateKey(), event, epoch, value));
    }

    /** The public key as agents keep it ({@code command.public.key} in their key file). */
    public String publicKeyText() {
        return CommandSignature.publicKeyText(key().publicKey());
    }

    private Loaded key() {
        Loaded k = loaded;
        if (k == null) {
            synchronized (this) {
                if (loaded == null) {
                    loaded = loadOrCreate();
                }
                k = loaded;
            }
        }
        return k;
    }

    private Loaded loadOrCreate() {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            Loaded k = active(c);
            if (k != null) {
                return k;
            }
            KeyPair pair = CommandSignature.newKeyPair();
            byte[] id = new byte[8];
            RANDOM.nextBytes(id);
            String keyId = "ck_" + HexFormat.of().formatHex(id);
            SecretCipher.Sealed sealed =
                    cipher.seal(associatedData(keyId), pair.getPrivate().getEncoded());
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO command_key (key_id, public_key, private_ciphertext, private_nonce)
                    VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING""")) {
                ps.setString(1, keyId);
                ps.setBytes(2, pair.getPublic().getEncoded());
                ps.setBytes(3, sealed.ciphertext());
                ps.setBytes(4, sealed.nonce());
                ps.executeUpdate();
            }
            k = active(c); // ours, or the one another instance made first
            if (k == null) {
                throw new IllegalStateException("no active command key after creating one");
            }
            return k;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot load the command signing key", e);
        }
    }

    private Loaded active(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                        "SELECT key_id, public_key, private_ciphertext, private_nonce FROM command_key WHERE status = 'active'");
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            String keyId = rs.getString(1);
            try {
                byte[] pkcs8 = cipher.open(associatedData(keyId), rs.getBytes(3), rs.getBytes(4));
                PrivateKey priv = CommandSignature.privateKey(pkcs8);
                return new Loaded(keyId, CommandSignature.publicKey(rs.getBytes(2)), priv);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(
                        "command key " + keyId + " does not decrypt under the configured master key", e);
            }
        }
    }

    private static String associatedData(String keyId) {
        return "command:" + keyId;
    }
}
