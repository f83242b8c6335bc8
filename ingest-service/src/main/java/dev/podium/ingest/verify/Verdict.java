package dev.podium.ingest.verify;

import dev.podium.events.Envelope;
import dev.podium.ingest.store.RecordCopy;

/** The outcome of checking one record before it may be stored. */
public sealed interface Verdict {

    /** Decoded, valid, signed by a key that verifies, by the agent the envelope names. */
    record Verified(Envelope envelope, String contentHash, String keyId, String agentId) implements Verdict {}

    /**
     * Refused with a reason for the DLQ; the ids are whatever could be read, for the rejected_event row.
     * {@code redrivable} is false for a record no fix could make valid (no JSON at all, over the size limit): only a
     * bounded copy of it is kept. {@code held} marks a verified record refused only for being over a run's budget or an
     * agent's quota: kept whole, spared by retention, stored once redriven under a raised bound. {@code kept} is what
     * is kept of the record when it was taken before the write (so that the record need not be held until then); null
     * when the write takes it from the record.
     */
    record Refused(
            String reason,
            String keyId,
            String eventId,
            String streamId,
            boolean redrivable,
            boolean held,
            RecordCopy kept)
            implements Verdict {

        public Refused(String reason, String keyId, String eventId, String streamId) {
            this(reason, keyId, eventId, streamId, true, false, null);
        }

        public Refused(String reason, String keyId, String eventId, String streamId, boolean redrivable) {
            this(reason, keyId, eventId, streamId, redrivable, false, null);
        }

        /** Whether its rejected_event row keeps the whole record (it verified, or may once fixed), not a prefix. */
        public boolean keepsWhole() {
            return redrivable || held;
        }

        /** This refusal with what is kept of its record taken now. */
        public Refused keeping(RecordCopy copy) {
            return new Refused(reason, keyId, eventId, streamId, redrivable, held, copy);
        }

        /** A verified record held back over a budget or quota. */
        public static Refused held(Verified v, String reason) {
            return new Refused(
                    reason,
                    v.keyId(),
                    v.envelope().eventId().toString(),
                    v.envelope().streamId(),
                    true,
                    true,
                    null);
        }
    }
}
