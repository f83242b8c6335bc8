package dev.podium.ingest.store;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM under ingest's master key for agent key secrets at rest. The key id is the associated data, so a
 * ciphertext copied onto another key's row does not decrypt.
 */
public final class SecretCipher {

    public record Sealed(byte[] ciphertext, byte[] nonce) {}

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKey key;

    public SecretCipher(String masterKeyBase64) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(masterKeyBase64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("podium.ingest.master-key is not base64", e);
        }
        if (raw.length != 32) {
            throw new IllegalArgumentException("podium.ingest.master-key must be 32 bytes (base64), was " + raw.length);
        }
        this.key = new SecretKeySpec(raw, "AES");
    }

    public Sealed seal(String keyId, byte[] secret) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
            return new Sealed(cipher.doFinal(secret), nonce);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }

    /** The secret, or an exception when the ciphertext was not made by this master key for this key id. */
    public byte[] open(String keyId, byte[] ciphertext, byte[] nonce) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(keyId.getBytes(StandardCharsets.UTF_8));
        return cipher.doFinal(ciphertext);
    }
}
