package dev.podium.ingest.verify;

import dev.podium.events.Envelope;

/** The outcome of checking one record before it may be stored. */
public sealed interface Verdict {

    /** Decoded, valid, signed by a key that verifies, by the agent the envelope names. */
    record Verified(Envelope envelope, String contentHash, String keyId, String agentId) implements Verdict {}

    /**
     * Refused with a reason for the DLQ; the ids are whatever could be read, for the rejected_event row.
     * {@code redrivable} is false for a record no fix could make valid (no JSON at all, over the size limit): only a
     * bounded copy of it is kept.
     */
    record Refused(String reason, String keyId, String eventId, String streamId, boolean redrivable)
            implements Verdict {

        public Refused(String reason, String keyId, String eventId, String streamId) {
            this(reason, keyId, eventId, streamId, true);
        }
    }
}
