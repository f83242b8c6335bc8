package dev.podium.ingest.verify;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.validate.IdentityBinding;
import dev.podium.events.validate.Limits;
import dev.podium.events.validate.Violation;
import dev.podium.ingest.store.AgentKey;
import dev.podium.ingest.store.RecordCopy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.record.TimestampType;

/**
 * Checks one record from {@code podium.events}: signature headers, a key that verifies (active or retired, not revoked),
 * the HMAC over the exact bytes, the contract (decode and validation), a stream kind that agents write, and a writer
 * that is the key's agent and, for an agent stream, the agent the stream id names, and identities in the payload bound
 * to the envelope ({@link IdentityBinding}). Run stream ownership needs the event
 * store and is checked by the batch. Pure: no I/O.
 */
public final class Verifier {

    /** What a key id may look like; anything else is never looked up. */
    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    private final EventCodec codec;

    public Verifier(EventCodec codec) {
        this.codec = codec;
    }

    /** The key id header of a record, if any. */
    public static Optional<String> keyId(Headers headers) {
        return header(headers, EventSigner.KEY_ID_HEADER)
                .filter(id -> KEY_ID.matcher(id).matches());
    }

    /** The signature header of a record, if any, as kept for a redrive. */
    public static Optional<String> signature(Headers headers) {
        return header(headers, EventSigner.SIGNATURE_HEADER);
    }

    /**
     * When the broker appended a record, a time its writer cannot set; for a topic with writer-set (CreateTime)
     * timestamps, now, when ingest reads it.
     */
    public static Instant appendedAt(ConsumerRecord<?, ?> r) {
        return r.timestampType() == TimestampType.LOG_APPEND_TIME ? Instant.ofEpochMilli(r.timestamp()) : Instant.now();
    }

    /** The verdict on a record the broker appended at {@code appendedAt} (see {@link #appendedAt}). */
    public Verdict verify(byte[] value, Headers headers, Map<String, AgentKey> keys, Instant appendedAt) {
        Optional<String> keyId = keyId(headers);
        Optional<String> signature = header(headers, EventSigner.SIGNATURE_HEADER);
        if (keyId.isEmpty()) {
            return refused("unsigned: no well-formed " + EventSigner.KEY_ID_HEADER + " header", null, value);
        }
        if (signature.isEmpty()) {
            return refused("unsigned: no " + EventSigner.SIGNATURE_HEADER + " header", keyId.get(), value);
        }
        AgentKey key = keys.get(keyId.get());
        if (key == null) {
            return refused("forged: unknown key " + keyId.get(), keyId.get(), value);
        }
        if (!key.verifiesAt(appendedAt)) {
            return refused(
                    "forged: key " + key.keyId() + " is "
                            + (key.status() == AgentKey.Status.REVOKED
                                    ? "revoked"
                                    : "retired and past its grace period"),
                    key.keyId(),
                    value);
        }
        if (value == null || !EventSigner.verify(value, signature.get(), key.secret())) {
            return refused("forged: signature does not match the record under key " + key.keyId(), key.keyId(), value);
        }
        Decoded decoded = codec.decode(value);
        if (decoded instanceof Decoded.Rejected r) {
            String[] ids = bestEffortIds(value);
            boolean wholeRecord =
                    r.violations().stream().anyMatch(v -> v.field().equals("$"));
            return new Verdict.Refused("invalid: " + r.reason(), key.keyId(), ids[0], ids[1], !wholeRecord);
        }
        Decoded.Accepted accepted = (Decoded.Accepted) decoded;
        Envelope env = accepted.envelope();
        Verdict.Refused notTheWriter = notTheWriter(env, key);
        if (notTheWriter != null) {
            return notTheWriter;
        }
        return new Verdict.Verified(env, accepted.contentHash(), key.keyId(), key.agentId());
    }

    /**
     * The refusal of an envelope that the key's agent may not write (a stream kind agents do not write, another agent's
     * id or stream, identities not bound to the envelope); null where it may, so that a verified record costs no
     * allocation for it.
     */
    private static Verdict.Refused notTheWriter(Envelope env, AgentKey key) {
        String eventId = env.eventId().toString();
        StreamId stream = StreamId.parse(env.streamId()).orElse(null);
        if (stream == null || !stream.kind().writtenByAgent()) {
            return new Verdict.Refused(
                    "not the writer: " + env.streamId() + " is written by ingest's command side only",
                    key.keyId(),
                    eventId,
                    env.streamId());
        }
        if (!key.agentId().equals(env.agentId())) {
            return new Verdict.Refused(
                    "not the writer: agent_id '" + env.agentId() + "' is not the agent of key " + key.keyId(),
                    key.keyId(),
                    eventId,
                    env.streamId());
        }
        if (stream.agentId().isPresent() && !stream.agentId().get().equals(key.agentId())) {
            return new Verdict.Refused(
                    "not the writer: " + env.streamId() + " belongs to agent '"
                            + stream.agentId().get() + "'",
                    key.keyId(),
                    eventId,
                    env.streamId());
        }
        Optional<Violation> unbound = IdentityBinding.violation(env);
        if (unbound.isPresent()) {
            return new Verdict.Refused("not the writer: " + unbound.get(), key.keyId(), eventId, env.streamId());
        }
        return null;
    }

    /**
     * Refused before its signature verified: anyone who reaches the broker can send such records, so none is worth
     * keeping whole; a prefix, the size and a hash identify it.
     */
    private Verdict.Refused refused(String reason, String keyId, byte[] value) {
        String[] ids = bestEffortIds(value);
        return new Verdict.Refused(reason, keyId, ids[0], ids[1], false);
    }

    /**
     * event_id and stream_id of a refused record whose top level is a JSON object, for the rejected_event row; never
     * throws. Read as tokens from the prefix a refusal keeps ({@link RecordCopy#PREFIX_BYTES}), the other members
     * skipped unread and the scan ended once both are found: an unsigned record costs a scan of at most 64 KiB, not a
     * tree of its text (up to 1 MiB of it, which a flood of unsigned records made the check's whole time). Ids past the
     * prefix are not kept, as the rest of such a record is not.
     */
    private String[] bestEffortIds(byte[] value) {
        String[] out = new String[2];
        if (value == null || value.length == 0 || value.length > Limits.MAX_RECORD_BYTES) {
            return out;
        }
        try (JsonParser parser =
                codec.mapper().createParser(value, 0, Math.min(value.length, RecordCopy.PREFIX_BYTES))) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return out;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME && (out[0] == null || out[1] == null)) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                if (token == JsonToken.VALUE_STRING && name.equals("event_id")) {
                    out[0] = shortText(parser);
                } else if (token == JsonToken.VALUE_STRING && name.equals("stream_id")) {
                    out[1] = shortText(parser);
                } else {
                    parser.skipChildren();
                }
            }
        } catch (Exception e) {
            // not JSON from here on: the ids read so far are all there are
        }
        return out;
    }

    private static String shortText(JsonParser parser) throws IOException {
        return parser.getTextLength() <= 200 ? parser.getText() : null;
    }

    private static Optional<String> header(Headers headers, String name) {
        if (headers == null) {
            return Optional.empty();
        }
        Header h = headers.lastHeader(name);
        if (h == null || h.value() == null || h.value().length == 0 || h.value().length > 256) {
            return Optional.empty();
        }
        return Optional.of(new String(h.value(), StandardCharsets.UTF_8));
    }
}
