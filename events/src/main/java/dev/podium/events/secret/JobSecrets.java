package dev.podium.events.secret;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals a job's secret environment for the one agent its grant names. Every agent reads {@code podium.jobs}, so the
 * values travel encrypted: AES-256-GCM under HKDF-SHA256(agent key secret, info {@value #INFO}), with the job id, run id
 * and lease epoch as associated data, so a sealed set copied into another grant, run or epoch does not open. The command
 * side can seal because it keeps agent key secrets (encrypted under its master key); only the holder of that key opens.
 */
public final class JobSecrets {

    static final String INFO = "podium job secrets v1";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ObjectMapper JSON = new ObjectMapper();

    private JobSecrets() {}

    public static SealedSecrets seal(
            String keyId, byte[] agentSecret, UUID jobId, UUID runId, int leaseEpoch, Map<String, String> values) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, agentSecret, nonce, keyId, jobId, runId, leaseEpoch);
            byte[] sealed = cipher.doFinal(JSON.writeValueAsBytes(new TreeMap<>(values)));
            Base64.Encoder b64 = Base64.getEncoder();
            return new SealedSecrets(keyId, b64.encodeToString(nonce), b64.encodeToString(sealed));
        } catch (GeneralSecurityException | JsonProcessingException e) {
            throw new IllegalStateException("AES-GCM over a string map cannot fail", e);
        }
    }

    /**
     * The values, or an exception when {@code sealed} was not made for this key, job, run and epoch (or was changed).
     */
    public static Map<String, String> open(
            SealedSecrets sealed, byte[] agentSecret, UUID jobId, UUID runId, int leaseEpoch)
            throws GeneralSecurityException {
        byte[] nonce;
        byte[] ciphertext;
        try {
            nonce = Base64.getDecoder().decode(sealed.nonce());
            ciphertext = Base64.getDecoder().decode(sealed.ciphertext());
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("sealed secrets are not base64", e);
        }
        if (nonce.length != NONCE_BYTES) {
            throw new GeneralSecurityException("nonce must be " + NONCE_BYTES + " bytes");
        }
        byte[] plain = cipher(Cipher.DECRYPT_MODE, agentSecret, nonce, sealed.keyId(), jobId, runId, leaseEpoch)
                .doFinal(ciphertext);
        try {
            return JSON.readValue(plain, new TypeReference<TreeMap<String, String>>() {});
        } catch (IOException e) {
            throw new GeneralSecurityException("sealed secrets are not a string map", e);
        }
    }

    private static Cipher cipher(
            int mode, byte[] agentSecret, byte[] nonce, String keyId, UUID jobId, UUID runId, int leaseEpoch)
            throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(
                mode,
                new SecretKeySpec(hkdf(agentSecret, INFO.getBytes(StandardCharsets.UTF_8)), "AES"),
                new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD((keyId + "\n" + jobId + "\n" + runId + "\n" + leaseEpoch).getBytes(StandardCharsets.UTF_8));
        return cipher;
    }

    /** HKDF-SHA256 (RFC 5869) with an empty salt, one 32-byte block of output. */
    static byte[] hkdf(byte[] secret, byte[] info) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(new byte[32], "HmacSHA256"));
            byte[] prk = mac.doFinal(secret);
            mac.init(new SecretKeySpec(prk, "HmacSHA256"));
            mac.update(info);
            mac.update((byte) 1);
            return mac.doFinal();
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JVM", e);
        }
    }
}
