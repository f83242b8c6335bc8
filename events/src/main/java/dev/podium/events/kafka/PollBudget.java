package dev.podium.events.kafka;

import org.apache.kafka.common.errors.SerializationException;

/**
 * The bytes of record values one poll may copy out of Kafka's buffers. {@code max.poll.records} bounds the records of a
 * poll but not their size after decompression, and a thousand records of 1 MiB can travel as a few KB of gzip: once the
 * budget is spent the next record is left for the next poll (Kafka returns what it has and reads that record again).
 * The first record of a poll is always taken, so a poll never comes back empty because of the budget.
 */
public final class PollBudget {

    private final long capacity;
    private long used;
    private boolean spent;

    public PollBudget(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a poll budget must be positive, not " + capacity);
        }
        this.capacity = capacity;
    }

    /** Called before each poll, on the polling thread. */
    public void reset() {
        used = 0;
        spent = false;
    }

    /** Whether this poll left a record for the next one because its budget was spent. */
    public boolean spent() {
        return spent;
    }

    void take(int bytes) {
        if (used > 0 && used + bytes > capacity) {
            spent = true;
            throw new Spent(capacity);
        }
        used += bytes;
    }

    /** The budget of this poll is spent: the record waits for the next one. */
    public static final class Spent extends SerializationException {

        Spent(long capacity) {
            super("the poll's budget of " + capacity + " bytes is spent; the record is read at the next poll");
        }
    }
}
