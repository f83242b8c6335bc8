package dev.podium.events.sign;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 over the exact record value bytes. Writers put the key id and the signature (lower-case hex) in the record
 * headers {@value #KEY_ID_HEADER} and {@value #SIGNATURE_HEADER}; ingest recomputes the signature from the bytes it
 * received, so any change to the record breaks it.
 */
public final class EventSigner {

    public static final String KEY_ID_HEADER = "podium-key-id";
    public static final String SIGNATURE_HEADER = "podium-signature";
    public static final String HEARTBEAT_DOMAIN = "podium.heartbeats/v1";
    private static final String ALGORITHM = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private EventSigner() {}

    /** The signature of {@code value} under {@code secret}, as lower-case hex. */
    public static String sign(byte[] value, byte[] secret) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
            return HexFormat.of().formatHex(mac.doFinal(value));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 unavailable", e);
        }
    }

    /** True when {@code signature} is the signature of {@code value} under {@code secret}; compared in constant time. */
    public static boolean verify(byte[] value, String signature, byte[] secret) {
        if (signature == null || value == null || secret == null || secret.length == 0) {
            return false;
        }
        byte[] expected = sign(value, secret).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(
                expected, signature.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The signature of a heartbeat: HMAC-SHA256 over {@value #HEARTBEAT_DOMAIN}, a NUL and the value bytes, so that an
     * event record replayed on {@code podium.heartbeats} (or a heartbeat replayed on {@code podium.events}) never
     * verifies.
     */
    public static String signHeartbeat(byte[] value, byte[] secret) {
        return sign(heartbeatMessage(value), secret);
    }

    public static boolean verifyHeartbeat(byte[] value, String signature, byte[] secret) {
        return value != null && verify(heartbeatMessage(value), signature, secret);
    }

    private static byte[] heartbeatMessage(byte[] value) {
        byte[] domain = HEARTBEAT_DOMAIN.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[domain.length + 1 + value.length];
        System.arraycopy(domain, 0, out, 0, domain.length);
        System.arraycopy(value, 0, out, domain.length + 1, value.length);
        return out;
    }

    /** A new random secret of 32 bytes, as URL-safe base64 without padding: the form agents keep in their key file. */
    public static String newSecret() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** The bytes of a secret in its textual form. */
    public static byte[] secretBytes(String secret) {
        return Base64.getUrlDecoder().decode(secret.trim());
    }
}
