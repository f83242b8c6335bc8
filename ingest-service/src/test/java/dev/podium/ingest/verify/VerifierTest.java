package dev.podium.ingest.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import dev.podium.events.validate.Limits;
import dev.podium.ingest.store.AgentKey;
import dev.podium.ingest.store.RecordCopy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class VerifierTest {

    private static final EventCodec CODEC = new EventCodec();
    private final Verifier verifier = new Verifier(CODEC);
    private final String secret = EventSigner.newSecret();
    private final AgentKey active =
            new AgentKey("pk_a", "agent-a", AgentKey.Status.ACTIVE, EventSigner.secretBytes(secret), "default", null);
    private final Envelope registered =
            SampleEvents.agentRegistered("agent-a", UUID.randomUUID(), "intel-gaudi2", Instant.now());

    @Test
    void aRecordSignedByItsAgentsKeyIsVerified() {
        byte[] value = CODEC.encode(registered);
        Verdict v = verifier.verify(value, headers("pk_a", sign(value)), Map.of("pk_a", active), Instant.now());
        assertThat(v).isInstanceOf(Verdict.Verified.class);
        assertThat(((Verdict.Verified) v).agentId()).isEqualTo("agent-a");
    }

    @Test
    void aRetiredKeyVerifiesWhatTheBrokerAppendedDuringItsGraceAndNothingAfter() {
        byte[] value = CODEC.encode(registered);
        Instant graceEnds = Instant.parse("2026-12-01T12:00:00Z");
        AgentKey retired =
                new AgentKey("pk_a", "agent-a", AgentKey.Status.RETIRED, active.secret(), "default", graceEnds);
        assertThat(verifier.verify(
                        value, headers("pk_a", sign(value)), Map.of("pk_a", retired), graceEnds.minusSeconds(1)))
                .isInstanceOf(Verdict.Verified.class);
        assertThat(verifier.verify(value, headers("pk_a", sign(value)), Map.of("pk_a", retired), graceEnds))
                .isInstanceOfSatisfying(
                        Verdict.Refused.class,
                        r -> assertThat(r.reason()).isEqualTo("forged: key pk_a is retired and past its grace period"));
    }

    @Test
    void unsignedForgedRevokedAndUnknownKeysAreRefusedWithTheirReason() {
        byte[] value = CODEC.encode(registered);
        assertThat(reason(value, headers(null, null), active)).startsWith("unsigned: no well-formed podium-key-id");
        assertThat(reason(value, headers("pk_a", null), active)).startsWith("unsigned: no podium-signature");
        assertThat(reason(value, headers("pk_b", sign(value)), active)).isEqualTo("forged: unknown key pk_b");
        assertThat(reason(value, headers("pk_a\u0000", sign(value)), active)).startsWith("unsigned");
        assertThat(reason(value, headers("pk_a", sign("other".getBytes(StandardCharsets.UTF_8))), active))
                .startsWith("forged: signature does not match");
        AgentKey revoked = new AgentKey("pk_a", "agent-a", AgentKey.Status.REVOKED, active.secret(), "default", null);
        assertThat(reason(value, headers("pk_a", sign(value)), revoked)).isEqualTo("forged: key pk_a is revoked");
    }

    @Test
    void aRefusedRecordStillNamesItsEventIdWhenItHasOne() {
        byte[] value = CODEC.encode(registered);
        Verdict v = verifier.verify(value, headers("pk_b", sign(value)), Map.of("pk_a", active), Instant.now());
        assertThat(((Verdict.Refused) v).eventId())
                .isEqualTo(registered.eventId().toString());
    }

    /**
     * An unsigned record's ids are read from its top level only, whatever comes before or after them: a nested object
     * that names other ids, a long member, an id too long to keep, or text that stops being JSON.
     */
    @Test
    void anUnsignedRecordsIdsAreReadFromItsTopLevelOnly() {
        String id = registered.eventId().toString();
        String longText = "x".repeat(RecordCopy.PREFIX_BYTES / 2);
        assertThat(unsignedIds("{\"payload\": {\"event_id\": \"inner\", \"stream_id\": \"inner\"}, \"message\": \""
                        + longText + "\", \"event_id\": \"" + id + "\", \"stream_id\": \"run/r1\"}"))
                .containsExactly(id, "run/r1");
        // past the prefix a refusal keeps: neither read nor kept
        assertThat(unsignedIds("{\"message\": \"" + "x".repeat(Limits.MAX_RECORD_BYTES / 2) + "\", \"event_id\": \""
                        + id + "\"}"))
                .containsExactly(null, null);
        assertThat(unsignedIds("{\"event_id\": \"" + id + "\", \"stream_id\": [1, 2], \"rest\": tru"))
                .containsExactly(id, null);
        assertThat(unsignedIds("{\"event_id\": \"" + "e".repeat(201) + "\", \"stream_id\": \"run/r1\"}"))
                .containsExactly(null, "run/r1");
        assertThat(unsignedIds("[\"event_id\", \"" + id + "\"]")).containsExactly(null, null);
        assertThat(unsignedIds("not json")).containsExactly(null, null);
    }

    @Test
    void invalidContentIsRefusedWithTheValidatorsReason() {
        byte[] value = "{\"event_id\": 1}".getBytes(StandardCharsets.UTF_8);
        assertThat(reason(value, headers("pk_a", sign(value)), active)).startsWith("invalid: event_id");
    }

    @Test
    void anotherAgentsEventIsRefused() {
        Envelope foreign = SampleEvents.agentRegistered("agent-b", UUID.randomUUID(), "intel-gaudi2", Instant.now());
        byte[] value = CODEC.encode(foreign);
        assertThat(reason(value, headers("pk_a", sign(value)), active))
                .isEqualTo("not the writer: agent_id 'agent-b' is not the agent of key pk_a");
    }

    @Test
    void commandSideStreamsAreRefused() {
        Envelope assign =
                SampleEvents.jobAssigned(UUID.randomUUID(), UUID.randomUUID(), "agent-a", 1, 1, Instant.now());
        byte[] value = CODEC.encode(assign);
        assertThat(reason(value, headers("pk_a", sign(value)), active))
                .contains("written by ingest's command side only");
    }

    private String[] unsignedIds(String text) {
        Verdict v = verifier.verify(
                text.getBytes(StandardCharsets.UTF_8), headers(null, null), Map.of("pk_a", active), Instant.now());
        Verdict.Refused refused = (Verdict.Refused) v;
        return new String[] {refused.eventId(), refused.streamId()};
    }

    private String reason(byte[] value, RecordHeaders headers, AgentKey key) {
        Verdict v = verifier.verify(value, headers, Map.of(key.keyId(), key), Instant.now());
        assertThat(v).isInstanceOf(Verdict.Refused.class);
        return ((Verdict.Refused) v).reason();
    }

    private String sign(byte[] value) {
        return EventSigner.sign(value, EventSigner.secretBytes(secret));
    }

    private static RecordHeaders headers(String keyId, String signature) {
        RecordHeaders h = new RecordHeaders();
        if (keyId != null) {
            h.add(EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8));
        }
        if (signature != null) {
            h.add(EventSigner.SIGNATURE_HEADER, signature.getBytes(StandardCharsets.UTF_8));
        }
        return h;
    }
}
