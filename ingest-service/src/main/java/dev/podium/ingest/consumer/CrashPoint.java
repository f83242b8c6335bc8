package dev.podium.ingest.consumer;

/**
 * Fixed points of a batch where a test may simulate a crash. The production implementation does nothing; a test
 * implementation throws an {@link Error}, which the consumer does not catch: its thread ends without committing,
 * exactly as if the process had died there.
 */
public interface CrashPoint {

    enum Stage {
        /** Everything written in the open transaction, nothing committed. */
        BEFORE_DB_COMMIT,
        /** Database committed; DLQ records not produced, offsets not committed. */
        AFTER_DB_COMMIT,
        /** Database committed and DLQ records acknowledged; offsets not committed. */
        BEFORE_OFFSET_COMMIT,
        /** Database committed, offset commit sent (asynchronously: it may not have reached the broker). */
        AFTER_OFFSET_COMMIT
    }

    void reached(Stage stage);
}
