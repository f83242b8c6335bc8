package dev.podium.events.kafka;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.RecordDeserializationException.DeserializationExceptionOrigin;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * The bytes of a record's key or value, copied out of Kafka's decompressed buffer only when they are within a limit and
 * within the poll's {@link PollBudget}. Over the limit it throws {@link TooLarge} without copying, which the consumer
 * sees as a {@code RecordDeserializationException} naming the partition and offset, with the buffer: it keeps a prefix
 * and a hash and seeks past. {@code ByteArrayDeserializer} would copy whatever decompression produced first.
 */
public final class BoundedBytesDeserializer implements Deserializer<byte[]> {

    /** Keys are stream ids or absent; nothing Podium writes comes near this. */
    public static final int KEY_LIMIT = 16 * 1024;

    private final int limit;
    private final PollBudget budget;

    /** {@code budget} null: not counted against a poll's budget (keys, which the limit keeps small). */
    public BoundedBytesDeserializer(int limit, PollBudget budget) {
        this.limit = limit;
        this.budget = budget;
    }

    /**
     * Why a consumer cannot take the record {@code e} names: its key ("key " first) or value over the limit, or the
     * exception's own message; empty when the record only waits for the next poll ({@link PollBudget.Spent}).
     */
    public static Optional<String> refusal(RecordDeserializationException e) {
        if (e.getCause() instanceof PollBudget.Spent) {
            return Optional.empty();
        }
        String why = e.getCause() == null ? e.getMessage() : e.getCause().getMessage();
        return Optional.of(e.origin() == DeserializationExceptionOrigin.KEY ? "key " + why : why);
    }

    @Override
    public byte[] deserialize(String topic, byte[] data) {
        return data == null ? null : deserialize(topic, null, ByteBuffer.wrap(data));
    }

    @Override
    public byte[] deserialize(String topic, Headers headers, ByteBuffer data) {
        if (data == null) {
            return null;
        }
        int size = data.remaining();
        if (size > limit) {
            throw new TooLarge(size, limit);
        }
        if (budget != null) {
            budget.take(size);
        }
        byte[] out = new byte[size];
        data.duplicate().get(out);
        return out;
    }

    /** A key or value over the limit after decompression. */
    public static final class TooLarge extends SerializationException {

        private final int size;

        TooLarge(int size, int limit) {
            super("too large after decompression: " + size + " bytes, over the limit of " + limit + " bytes");
            this.size = size;
        }

        public int size() {
            return size;
        }
    }
}
