package dev.podium.events.sign;

import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobEvent;
import dev.podium.events.job.JobLeaseExpired;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.UUID;

/**
 * Ed25519 signatures of the command side over the records of {@code podium.jobs}. The signed message is a domain of its
 * own ({@value #DOMAIN}), the job id, the run id (grants and lease expiries; empty otherwise), the lease epoch and the
 * exact record value bytes, so a signature made for one job, run or epoch never verifies for another, and nothing an
 * agent signs (HMAC over events and heartbeats) can pass for a command. Agents hold only the public key.
 */
public final class CommandSignature {

    public static final String SIGNATURE_HEADER = "podium-command-signature";
    public static final String EPOCH_HEADER = "podium-lease-epoch";
    static final String DOMAIN = "podium.jobs/v1";
    private static final String ALGORITHM = "Ed25519";

    private CommandSignature() {}

    /** The run a record names: the run granted or expired, else null. */
    public static UUID runOf(JobEvent event) {
        if (event instanceof JobAssigned a) {
            return a.runId();
        }
        if (event instanceof JobLeaseExpired x) {
            return x.runId();
        }
        return null;
    }

    /** The epoch a record states in its payload, or null where it has none (requests and cancels). */
    public static Integer epochInPayload(JobEvent event) {
        if (event instanceof JobAssigned a) {
            return a.leaseEpoch();
        }
        if (event instanceof JobLeaseExpired x) {
            return x.leaseEpoch();
        }
        return null;
    }

    /** The signature of a record's value, as base64; {@code epoch} must be the payload's where it states one. */
    public static String sign(PrivateKey key, JobEvent event, int epoch, byte[] value) {
        Integer stated = epochInPayload(event);
        if (stated != null && stated != epoch) {
            throw new IllegalArgumentException("epoch " + epoch + " differs from the payload's " + stated);
        }
        try {
            Signature s = Signature.getInstance(ALGORITHM);
            s.initSign(key);
            s.update(message(event.jobId(), runOf(event), epoch, value));
            return Base64.getEncoder().encodeToString(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 unavailable", e);
        }
    }

    /**
     * True when {@code signature} was made by the holder of {@code key}'s private key for this record, job, run and epoch,
     * and the epoch agrees with the payload's.
     */
    public static boolean verify(PublicKey key, JobEvent event, int epoch, byte[] value, String signature) {
        if (key == null || signature == null || value == null) {
            return false;
        }
        Integer stated = epochInPayload(event);
        if (stated != null && stated != epoch) {
            return false;
        }
        try {
            Signature s = Signature.getInstance(ALGORITHM);
            s.initVerify(key);
            s.update(message(event.jobId(), runOf(event), epoch, value));
            return s.verify(Base64.getDecoder().decode(signature.trim()));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return false;
        }
    }

    static byte[] message(UUID jobId, UUID runId, int epoch, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 128);
        for (String part :
                new String[] {DOMAIN, jobId.toString(), runId == null ? "" : runId.toString(), Integer.toString(epoch)
                }) {
            out.writeBytes(part.getBytes(StandardCharsets.US_ASCII));
            out.write(0);
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    public static KeyPair newKeyPair() {
        try {
            return KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 unavailable", e);
        }
    }

    /** A public key as agents keep it in their key file: base64 of its X.509 encoding. */
    public static String publicKeyText(PublicKey key) {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }

    /** The public key in that textual form; IllegalArgumentException when it is not an Ed25519 public key. */
    public static PublicKey publicKey(String text) {
        try {
            return publicKey(Base64.getDecoder().decode(text.trim()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a base64 Ed25519 public key", e);
        }
    }

    /** The public key of an X.509 encoding; IllegalArgumentException when it is not an Ed25519 public key. */
    public static PublicKey publicKey(byte[] x509) {
        try {
            return KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(x509));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an Ed25519 public key", e);
        }
    }

    /** A private key from its PKCS#8 encoding. */
    public static PrivateKey privateKey(byte[] pkcs8) throws GeneralSecurityException {
        return KeyFactory.getInstance(ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    }
}
