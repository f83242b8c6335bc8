package dev.podium.ingest.verify;

import dev.podium.events.Envelope;

/** The outcome of checking one record before it may be stored. */
public sealed interface Verdict {

    /** Decoded, valid, signed by a key that verifies, by the agent the envelope names. */
    record Verified(Envelope envelope, String contentHash, String keyId, String agentId) implements Verdict {}

    /**
     * Refused with a reason for the DLQ; the ids are whatever could be read, for the rejected_event row.
     * {@code redrivable} is false for a record no fix could make valid (no JSON at all, over the size limit): only a
     * bounded copy of it is kept. {@code held} marks a verified record refused only for being over a run's budget or an
     * agent's quota: kept whole, spared by retention, stored once redriven under a raised bound.
     */
    record Refused(String reason, String keyId, String eventId, String streamId, boolean redrivable, boolean held)
            implements Verdict {

        public Refused(String reason, String keyId, String eventId, String streamId) {
            this(reason, keyId, eventId, streamId, true, false);
        }

        public Refused(String reason, String keyId, String eventId, String streamId, boolean redrivable) {
            this(reason, keyId, eventId, streamId, redrivable, false);
        }

        /** A verified record held back over a budget or quota. */
        public static Refused held(Verified v, String reason) {
            return new Refused(
                    reason,
                    v.keyId(),
                    v.envelope().eventId().toString(),
                    v.envelope().streamId(),
                    true,
                    true);
        }
    }
}
