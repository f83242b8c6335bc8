package dev.podium.agent.publish;

import dev.podium.agent.journal.Journal;
import dev.podium.events.Envelope;
import dev.podium.events.Event;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.secret.JobSecrets;
import dev.podium.events.secret.SealedSecrets;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.validate.Limits;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;

/**
 * Turns events into signed records and journals them; the {@link Publisher}, when there is one, sends them. Every record
 * is validated with the contract's own decoder before it is journaled, so the agent never publishes what ingest would
 * reject.
 */
public final class EventSink {

    private final EventCodec codec = new EventCodec();
    private final Journal journal;
    private final String agentId;
    private final String keyId;
    private final byte[] secret;
    private final Clock clock;
    private volatile Publisher publisher;

    public EventSink(Journal journal, String agentId, String keyId, byte[] secret, Clock clock) {
        this.journal = journal;
        this.agentId = agentId;
        this.keyId = keyId;
        this.secret = secret.clone();
        this.clock = clock;
    }

    public void attach(Publisher publisher) {
        this.publisher = publisher;
    }

    public String agentId() {
        return agentId;
    }

    public Journal journal() {
        return journal;
    }

    /** A writer for one stream, with its own seq counter starting at 1. */
    public StreamWriter stream(StreamId stream) {
        return new StreamWriter(stream);
    }

    /** Signs and journals a record, then wakes the publisher. */
    private void journal(String topic, String key, byte[] value) {
        journal.append(topic, key, signedHeaders(value), value);
        Publisher p = publisher;
        if (p != null) {
            p.nudge();
        }
    }

    /**
     * The secret environment a grant carries, opened with this agent's key; the key never leaves the sink.
     *
     * @throws GeneralSecurityException when it was not sealed for this key, job, run and epoch
     */
    public Map<String, String> openSecrets(SealedSecrets sealed, UUID jobId, UUID runId, int leaseEpoch)
            throws GeneralSecurityException {
        if (!keyId.equals(sealed.keyId())) {
            throw new GeneralSecurityException("sealed for key " + sealed.keyId() + ", this agent holds " + keyId);
        }
        return JobSecrets.open(sealed, secret, jobId, runId, leaseEpoch);
    }

    /** The signed headers of a heartbeat, signed in the heartbeat domain (see EventSigner#signHeartbeat). */
    public Map<String, byte[]> heartbeatHeaders(byte[] value) {
        return Map.of(
                EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8),
                EventSigner.SIGNATURE_HEADER,
                        EventSigner.signHeartbeat(value, secret).getBytes(StandardCharsets.US_ASCII));
    }

    private Map<String, byte[]> signedHeaders(byte[] value) {
        return Map.of(
                EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8),
                EventSigner.SIGNATURE_HEADER, EventSigner.sign(value, secret).getBytes(StandardCharsets.US_ASCII));
    }

    public final class StreamWriter {
        private final StreamId stream;
        private long seq;

        private StreamWriter(StreamId stream) {
            this.stream = stream;
        }

        public StreamId id() {
            return stream;
        }

        /** Encodes, checks, signs and journals the next event of this stream; returns its envelope. */
        public synchronized Envelope emit(Event payload) {
            Envelope envelope = Envelope.of(TimeOrderedIds.next(), stream, seq + 1, agentId, clock.instant(), payload);
            byte[] bytes = codec.encode(envelope);
            if (bytes.length > Limits.MAX_RECORD_BYTES) {
                throw new RecordTooLargeException(envelope.type() + " of " + bytes.length
                        + " bytes is over the limit of " + Limits.MAX_RECORD_BYTES + " bytes");
            }
            Decoded decoded = codec.decode(bytes);
            if (decoded instanceof Decoded.Rejected r) {
                throw new IllegalStateException("the agent made an invalid " + envelope.type() + ": " + r.reason());
            }
            journal(Topics.EVENTS, stream.value(), bytes);
            seq++;
            return envelope;
        }
    }
}
