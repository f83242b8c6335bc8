package dev.podium.ingest.command;

import dev.podium.events.job.JobEvent;
import dev.podium.events.sign.CommandSignature;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.entity.CommandKeyEntity;
import dev.podium.ingest.store.SecretCipher;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * The command side's signing key for {@code podium.jobs} (table {@code command_key}): made by the first instance that
 * needs it, its private half kept encrypted under the master key with "command:" + key id as associated data (so no
 * agent key's ciphertext can pass for it), loaded once per process. In transactions of its own, committed at once, so
 * that every instance signs with the same key however their transactions interleave (the unique index on the active key
 * lets one instance's key in; the others load it).
 */
@ApplicationScoped
public class CommandKey {

    private static final SecureRandom RANDOM = new SecureRandom();

    private record Loaded(String keyId, PublicKey publicKey, PrivateKey privateKey) {}

    private final SecretCipher cipher;
    private volatile Loaded loaded;

    public CommandKey(IngestConfig config) {
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

    /** The active key's id when it does not decrypt under the configured master key; empty when it does or there is none. */
    public Optional<String> undecryptable() {
        return QuarkusTransaction.requiringNew()
                .call(() -> CommandKeyEntity.active().filter(key -> !opens(key)).map(key -> key.keyId));
    }

    private boolean opens(CommandKeyEntity key) {
        try {
            cipher.open(associatedData(key.keyId), key.privateCiphertext, key.privateNonce);
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
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
        Loaded k = QuarkusTransaction.requiringNew().call(this::active);
        if (k != null) {
            return k;
        }
        RuntimeException lost = null;
        try {
            QuarkusTransaction.requiringNew().run(this::create);
        } catch (RuntimeException e) {
            lost = e; // another instance made the active key first
        }
        k = QuarkusTransaction.requiringNew().call(this::active); // ours, or the one another instance made first
        if (k == null) {
            throw new IllegalStateException("no active command key after creating one", lost);
        }
        return k;
    }

    private void create() {
        KeyPair pair = CommandSignature.newKeyPair();
        byte[] id = new byte[8];
        RANDOM.nextBytes(id);
        CommandKeyEntity key = new CommandKeyEntity();
        key.keyId = "ck_" + HexFormat.of().formatHex(id);
        SecretCipher.Sealed sealed =
                cipher.seal(associatedData(key.keyId), pair.getPrivate().getEncoded());
        key.publicKey = pair.getPublic().getEncoded();
        key.privateCiphertext = sealed.ciphertext();
        key.privateNonce = sealed.nonce();
        key.status = CommandKeyEntity.ACTIVE;
        key.persist();
    }

    private Loaded active() {
        Optional<CommandKeyEntity> found = CommandKeyEntity.active();
        if (found.isEmpty()) {
            return null;
        }
        CommandKeyEntity key = found.get();
        try {
            byte[] pkcs8 = cipher.open(associatedData(key.keyId), key.privateCiphertext, key.privateNonce);
            return new Loaded(key.keyId, CommandSignature.publicKey(key.publicKey), CommandSignature.privateKey(pkcs8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(
                    "command key " + key.keyId + " does not decrypt under the configured master key", e);
        }
    }

    private static String associatedData(String keyId) {
        return "command:" + keyId;
    }
}
