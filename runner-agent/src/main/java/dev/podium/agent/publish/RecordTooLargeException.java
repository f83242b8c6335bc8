package dev.podium.agent.publish;

/** An event whose encoded record is over {@code Limits.MAX_RECORD_BYTES}; the agent never produces it. */
public class RecordTooLargeException extends RuntimeException {
    public RecordTooLargeException(String message) {
        super(message);
    }
}
