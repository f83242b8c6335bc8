package dev.podium.ingest.store;

import dev.podium.events.codec.EventCodec;
import dev.podium.events.validate.Limits;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What ingest keeps of a refused record, in {@code rejected_event} and on the DLQ. A record that may be redriven keeps
 * its bytes; one over the size limit, or one that is no JSON at all, keeps its first {@value #PREFIX_BYTES} bytes, so
 * that nothing a record holds can make a copy of it fail or grow without bound. The size as received and the SHA-256 of
 * all of it identify the record either way.
 */
public record RecordCopy(byte[] bytes, int originalBytes, String sha256, boolean truncated) {

    public static final int PREFIX_BYTES = 64 * 1024;

    /** The copy of {@code value}; {@code redrivable} false for a record no fix could make valid. */
    public static RecordCopy of(byte[] value, boolean redrivable) {
        if (value == null) {
            return new RecordCopy(null, 0, null, false);
        }
        boolean whole = redrivable && value.length <= Limits.MAX_RECORD_BYTES;
        byte[] kept = whole || value.length <= PREFIX_BYTES ? value : Arrays.copyOf(value, PREFIX_BYTES);
        return new RecordCopy(kept, value.length, EventCodec.contentHash(value), kept.length < value.length);
    }

    /**
     * The copy of a value read out of Kafka's buffer but never copied whole (over the limit after decompression): its
     * first bytes, its size and the hash of all of it; without a buffer (a record no process could read), nothing.
     */
    public static RecordCopy ofUnread(ByteBuffer value) {
        if (value == null) {
            return new RecordCopy(null, 0, null, true);
        }
        int size = value.remaining();
        byte[] prefix = new byte[Math.min(PREFIX_BYTES, size)];
        value.duplicate().get(prefix);
        return new RecordCopy(prefix, size, sha256(value.duplicate()), prefix.length < size);
    }

    private static String sha256(ByteBuffer bytes) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(bytes);
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
