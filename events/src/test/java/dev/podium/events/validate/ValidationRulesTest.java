package dev.podium.events.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.events.EventType;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.JobSpec;
import dev.podium.events.testing.SampleEvents;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** One test per validation rule: each trips the rule and asserts the field path and the reason. */
class ValidationRulesTest {

    private static final Instant NOW = SampleEvents.AT;
    private final EventCodec codec = new EventCodec(Clock.fixed(NOW, ZoneOffset.UTC));

    // ---- helpers ----

    private ObjectNode tree(EventType type) {
        return codec.toTree(SampleEvents.of(type));
    }

    private List<Violation> reject(byte[] bytes) {
        Decoded d = codec.decode(bytes);
        assertThat(d).isInstanceOf(Decoded.Rejected.class);
        List<Violation> v = ((Decoded.Rejected) d).violations();
        assertThat(v).isNotEmpty();
        return v;
    }

    private List<Violation> reject(JsonNode root) {
        return reject(bytes(root));
    }

    private byte[] bytes(JsonNode root) {
        try {
            return codec.mapper().writeValueAsBytes(root);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private List<Violation> rejectMutated(EventType type, Consumer<ObjectNode> mutation) {
        ObjectNode root = tree(type);
        mutation.accept(root);
        return reject(root);
    }

    private static ObjectNode payload(ObjectNode root) {
        return (ObjectNode) root.get("payload");
    }

    private static void assertViolation(List<Violation> violations, String field, String reasonPart) {
        assertThat(violations).as("violations %s", violations).anySatisfy(v -> {
            assertThat(v.field()).isEqualTo(field);
            assertThat(v.reason()).contains(reasonPart);
        });
    }

    @Test
    void unchangedSampleIsAccepted() {
        for (EventType t : EventType.values()) {
            assertThat(codec.decode(bytes(tree(t)))).as(t.name()).isInstanceOf(Decoded.Accepted.class);
        }
    }

    // ---- missing fields ----

    @Test
    void missingEnvelopeFieldIsNamed() {
        for (String field :
                List.of("event_id", "type", "schema_version", "stream_id", "seq", "occurred_at", "payload")) {
            assertViolation(rejectMutated(EventType.RunStarted, r -> r.remove(field)), field, "missing");
        }
    }

    @Test
    void missingAgentIdOnAgentStreamIsNamed() {
        assertViolation(
                rejectMutated(EventType.RunCompleted, r -> r.remove("agent_id")),
                "agent_id",
                "missing: required on run streams");
    }

    @Test
    void missingNestedPayloadFieldIsNamedByItsPath() {
        var v = rejectMutated(
                EventType.RunCompleted,
                r -> ((ObjectNode) payload(r).get("metrics").get(0)).remove("unit"));
        assertViolation(v, "payload.metrics[0].unit", "missing");

        var host = rejectMutated(
                EventType.RunStarted, r -> ((ObjectNode) payload(r).get("host")).remove("cpu_model"));
        assertViolation(host, "payload.host.cpu_model", "missing");
    }

    @Test
    void missingClaimValueKindIsNamed() {
        var v = rejectMutated(
                EventType.PublishedClaimImported,
                r -> ((ObjectNode) payload(r).get("claim").get("value")).remove("kind"));
        assertViolation(v, "payload.claim.value.kind", "missing");
    }

    @Test
    void unknownClaimValueKindIsNamed() {
        var v = rejectMutated(
                EventType.PublishedClaimImported,
                r -> ((ObjectNode) payload(r).get("claim").get("value")).put("kind", "guess"));
        assertViolation(v, "payload.claim.value.kind", "'guess' is not one of [value, range, bound, n/a]");
    }

    @Test
    void absentNullableFieldIsAccepted() {
        ObjectNode root = tree(EventType.RunStarted);
        ((ObjectNode) payload(root).get("host")).remove("machine_id");
        payload(root).remove("software");
        assertThat(codec.decode(bytes(root))).isInstanceOf(Decoded.Accepted.class);
    }

    // ---- types ----

    @Test
    void wrongTypesAreNamed() {
        assertViolation(rejectMutated(EventType.RunStarted, r -> r.put("seq", "1")), "seq", "must be an integer");
        assertViolation(rejectMutated(EventType.RunStarted, r -> r.put("seq", 1.5)), "seq", "must be an integer");
        assertViolation(rejectMutated(EventType.RunStarted, r -> r.put("event_id", 7)), "event_id", "must be a string");
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("event_id", "not-a-uuid")),
                "event_id",
                "must be a UUID");
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("payload", "{}")), "payload", "must be an object");
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> payload(r).put("repetitions", "3")),
                "payload.repetitions",
                "must be an integer");
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> payload(r).put("accelerators", "gaudi2")),
                "payload.accelerators",
                "must be an array");
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> payload(r).put("host", 1)),
                "payload.host",
                "must be an object");
        assertViolation(
                rejectMutated(
                        EventType.RunCompleted,
                        r -> ((ObjectNode) payload(r).get("validity").get(0)).put("passed", "yes")),
                "payload.validity[0].passed",
                "must be true or false");
        assertViolation(
                rejectMutated(
                        EventType.RunCompleted,
                        r -> ((ObjectNode) payload(r).get("metrics").get(0)).put("direction", "UPWARDS")),
                "payload.metrics[0].direction",
                "'UPWARDS' is not one of");
        assertViolation(
                rejectMutated(
                        EventType.RunCompleted,
                        r -> ((ArrayNode) payload(r).get("metrics").get(0).get("values")).set(0, "601.1")),
                "payload.metrics[0].values[0]",
                "must be a number");
        assertViolation(
                rejectMutated(EventType.JobAssigned, r -> payload(r).put("lease_expires_at", "tomorrow")),
                "payload.lease_expires_at",
                "must be an ISO-8601 instant");
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> payload(r).put("repetitions", 3_000_000_000L)),
                "payload.repetitions",
                "must be an integer");
    }

    @Test
    void wholeRecordMustBeAnObject() {
        assertViolation(reject("[1,2]".getBytes(StandardCharsets.UTF_8)), "$", "must be a JSON object");
        assertViolation(reject("\"x\"".getBytes(StandardCharsets.UTF_8)), "$", "must be a JSON object");
    }

    // ---- type, version, stream ----

    @Test
    void unknownTypeIsNamed() {
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("type", "RunExploded")),
                "type",
                "unknown event type 'RunExploded'");
    }

    @Test
    void unknownSchemaVersionIsNamed() {
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("schema_version", 2)),
                "schema_version",
                "unknown schema_version 2 for RunStarted");
    }

    @Test
    void schemaVersionThatWrapsToAKnownIntIsRejected() {
        // 2^32 + 1 would read as 1 if truncated to an int.
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("schema_version", 4_294_967_297L)),
                "schema_version",
                "must be an integer");
    }

    @Test
    void streamOfTheWrongKindIsNamed() {
        String jobStream = "job/" + SampleEvents.JOB_ID;
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("stream_id", jobStream)),
                "stream_id",
                "RunStarted belongs on a run stream, not '" + jobStream + "'");
    }

    @Test
    void malformedStreamIdIsNamed() {
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("stream_id", "run/42")),
                "stream_id",
                "'run/42' is not a valid stream id");
    }

    @Test
    void agentIdThatDoesNotOwnTheAgentStreamIsNamed() {
        assertViolation(
                rejectMutated(EventType.AgentRegistered, r -> r.put("agent_id", "h100-host-9")),
                "agent_id",
                "'h100-host-9' does not own stream 'agent/gaudi2-host-1/");
    }

    @Test
    void agentIdOfTheWrongShapeIsNamed() {
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("agent_id", "gaudi host/1")),
                "agent_id",
                "'gaudi host/1' is not a valid agent id");
    }

    @Test
    void seqMustBePositive() {
        assertViolation(rejectMutated(EventType.RunStarted, r -> r.put("seq", 0)), "seq", "must be 1 or more, was 0");
    }

    // ---- numbers ----

    @Test
    void nonFiniteThroughputIsNamed() {
        byte[] bytes = bytes(tree(EventType.RunCompleted));
        String json = new String(bytes, StandardCharsets.UTF_8).replace("601.1", "1e400");
        assertViolation(
                reject(json.getBytes(StandardCharsets.UTF_8)),
                "payload.metrics[0].values[0]",
                "must be finite, was Infinity");
    }

    @Test
    void negativeThroughputIsNamed() {
        var v = rejectMutated(
                EventType.RunCompleted,
                r -> ((ArrayNode) payload(r).get("metrics").get(0).get("values")).set(1, -600.4));
        assertViolation(v, "payload.metrics[0].values[1]", "must not be negative, was -600.4");

        var sample = rejectMutated(
                EventType.MetricSampled,
                r -> ((ObjectNode) payload(r).get("samples").get(2)).put("value", -1.0));
        assertViolation(sample, "payload.samples[2].value", "must not be negative");

        var mean = rejectMutated(
                EventType.RunCompleted,
                r -> ((ObjectNode) payload(r).get("metrics").get(0).get("statistics")).put("mean", -1.0));
        assertViolation(mean, "payload.metrics[0].statistics.mean", "must not be negative");
    }

    @Test
    void negativeCountIsNamed() {
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> payload(r).put("warmup_steps", -1)),
                "payload.warmup_steps",
                "must not be negative, was -1");
    }

    // ---- strings, arrays, maps ----

    @Test
    void nulCharacterInAStringIsNamed() {
        var v = rejectMutated(EventType.RunFailed, r -> payload(r).put("phase", "meas\u0000ure"));
        assertViolation(v, "payload.phase", "contains the NUL character \\u0000");
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("agent_id", "gaudi2\u0000")),
                "agent_id",
                "contains the NUL character");
    }

    @Test
    void nulCharacterInAMapKeyIsNamed() {
        var v = rejectMutated(
                EventType.RunStarted, r -> ((ObjectNode) payload(r).get("key").get("extra")).put("evil\u0000key", "1"));
        assertViolation(v, "payload.key.extra.evil\u0000key (name)", "contains the NUL character");
    }

    @Test
    void nulCharacterInAnUnknownFieldIsNamed() {
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("comment", "a\u0000b")),
                "comment",
                "contains the NUL character");
        assertViolation(
                rejectMutated(
                        EventType.RunStarted, r -> payload(r).putObject("x").put("y\u0000", 1)),
                "payload.x.y\u0000 (name)",
                "contains the NUL character");
    }

    @Test
    void stringOverTheLimitIsNamed() {
        String longName = "p".repeat(Limits.MAX_STRING_CHARS + 1);
        assertViolation(
                rejectMutated(EventType.RunFailed, r -> payload(r).put("phase", longName)),
                "payload.phase",
                "has 1025 characters, over the limit of 1024");
    }

    @Test
    void textFieldHasTheLargerLimit() {
        ObjectNode root = tree(EventType.RunFailed);
        payload(root).put("log_tail", "x".repeat(Limits.MAX_TEXT_CHARS));
        assertThat(codec.decode(bytes(root))).isInstanceOf(Decoded.Accepted.class);

        payload(root).put("log_tail", "x".repeat(Limits.MAX_TEXT_CHARS + 1));
        assertViolation(reject(root), "payload.log_tail", "over the limit of " + Limits.MAX_TEXT_CHARS);
    }

    @Test
    void arrayOverTheLimitIsNamed() {
        var v = rejectMutated(EventType.RunCompleted, r -> {
            ArrayNode values = (ArrayNode) payload(r).get("metrics").get(0).get("values");
            values.removeAll();
            for (int i = 0; i <= Limits.MAX_ARRAY_ITEMS; i++) {
                values.add(1.0);
            }
        });
        assertViolation(v, "payload.metrics[0].values", "has 10001 items, over the limit of 10000");
    }

    @Test
    void mapOverTheLimitIsNamed() {
        var v = rejectMutated(EventType.RunStarted, r -> {
            ObjectNode extra = (ObjectNode) payload(r).get("key").get("extra");
            for (int i = 0; i <= Limits.MAX_MAP_ENTRIES; i++) {
                extra.put("p" + i, "v");
            }
        });
        assertViolation(v, "payload.key.extra", "entries, over the limit of 256");
    }

    @Test
    void nullValuesAreReportedAsMissingOrNull() {
        assertViolation(rejectMutated(EventType.RunStarted, r -> r.putNull("event_id")), "event_id", "missing");
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> payload(r).putNull("host")), "payload.host", "missing");
        assertViolation(
                rejectMutated(
                        EventType.RunCompleted,
                        r -> ((ArrayNode) payload(r).get("metrics").get(0).get("values")).set(0, (JsonNode) null)),
                "payload.metrics[0].values[0]",
                "must not be null");
        assertViolation(
                rejectMutated(
                        EventType.RunStarted,
                        r -> ((ObjectNode) payload(r).get("key").get("extra")).putNull("dataloader_num_workers")),
                "payload.key.extra.dataloader_num_workers",
                "must not be null");
        assertViolation(reject("null".getBytes(StandardCharsets.UTF_8)), "$", "must be a JSON object");
    }

    // ---- the record as a whole ----

    @Test
    void recordOverOneMebibyteIsRejectedBeforeParsing() {
        byte[] big = new byte[Limits.MAX_RECORD_BYTES + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        assertViolation(reject(big), "$", "record of 1048577 bytes is over the limit of 1048576 bytes");
    }

    @Test
    void nestingDeeperThanTheLimitIsRejected() {
        String deep = "[".repeat(Limits.MAX_NESTING_DEPTH + 1) + "]".repeat(Limits.MAX_NESTING_DEPTH + 1);
        String json = new String(bytes(tree(EventType.RunCancelled)), StandardCharsets.UTF_8)
                .replaceFirst("^\\{", "{\"deep\":" + deep + ",");
        assertViolation(reject(json.getBytes(StandardCharsets.UTF_8)), "$", "malformed JSON: Document nesting depth");
    }

    @Test
    void numberLongerThanTheParserAllowsIsRejected() {
        String json = new String(bytes(tree(EventType.RunCancelled)), StandardCharsets.UTF_8)
                .replaceFirst("\"seq\":2", "\"seq\":" + "9".repeat(5000));
        assertViolation(reject(json.getBytes(StandardCharsets.UTF_8)), "$", "malformed JSON: Number value length");
    }

    @Test
    void emptyRecordIsRejected() {
        assertViolation(reject(new byte[0]), "$", "empty record");
        assertViolation(reject("   ".getBytes(StandardCharsets.UTF_8)), "$", "must be a JSON object");
    }

    @Test
    void malformedJsonIsRejected() {
        assertViolation(reject("{\"event_id\":".getBytes(StandardCharsets.UTF_8)), "$", "malformed JSON");
        assertViolation(reject("{'a':1}".getBytes(StandardCharsets.UTF_8)), "$", "malformed JSON");
        assertViolation(reject("{\"a\":NaN}".getBytes(StandardCharsets.UTF_8)), "$", "malformed JSON");
    }

    @Test
    void invalidUtf8IsRejected() {
        byte[] valid = bytes(tree(EventType.RunCancelled));
        String json = new String(valid, StandardCharsets.UTF_8);
        int at = json.indexOf("JobCancelled by");
        byte[] broken = valid.clone();
        broken[at] = (byte) 0xC3; // a lead byte followed by an ASCII byte
        assertViolation(reject(broken), "$", "not UTF-8");
    }

    @Test
    void utf16AndAByteOrderMarkAreRejected() {
        String json = new String(bytes(tree(EventType.RunCancelled)), StandardCharsets.UTF_8);
        assertViolation(reject(json.getBytes(StandardCharsets.UTF_16)), "$", "not UTF-8");
        assertViolation(reject(("\uFEFF" + json).getBytes(StandardCharsets.UTF_8)), "$", "not UTF-8");
    }

    @Test
    void anythingAfterTheObjectIsRejected() {
        String json = new String(bytes(tree(EventType.RunCancelled)), StandardCharsets.UTF_8);
        assertViolation(reject((json + "{\"x\":1}").getBytes(StandardCharsets.UTF_8)), "$", "malformed JSON");
        assertViolation(reject((json + " x").getBytes(StandardCharsets.UTF_8)), "$", "malformed JSON");
    }

    @Test
    void aMetricBeyondAnyMeasurementIsRejected() {
        String json = new String(bytes(tree(EventType.RunCompleted)), StandardCharsets.UTF_8);
        String huge = json.replaceFirst("\"values\":\\[[0-9.]+", "\"values\":[1e308");
        assertThat(huge).isNotEqualTo(json);
        assertViolation(
                reject(huge.getBytes(StandardCharsets.UTF_8)),
                "payload.metrics[0].values[0]",
                "must be at most 1.0E150 in magnitude");
    }

    @Test
    void duplicateKeysAreRejected() {
        String json = new String(bytes(tree(EventType.RunCancelled)), StandardCharsets.UTF_8)
                .replaceFirst("^\\{", "{\"seq\":99,");
        assertViolation(reject(json.getBytes(StandardCharsets.UTF_8)), "$", "malformed JSON: Duplicate field 'seq'");
    }

    // ---- the clock ----

    @Test
    void occurredAtMoreThanADayAheadIsRejected() {
        Instant ahead = NOW.plus(Duration.ofDays(1)).plusSeconds(1);
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("occurred_at", ahead.toString())),
                "occurred_at",
                "is more than a day ahead of ingest's clock (" + NOW + ")");
    }

    @Test
    void occurredAtUpToADayAheadOrLongAgoIsAccepted() {
        for (Instant at : List.of(NOW.plus(Duration.ofDays(1)), Instant.parse("2001-01-01T00:00:00Z"))) {
            ObjectNode root = tree(EventType.RunStarted);
            root.put("occurred_at", at.toString());
            assertThat(codec.decode(bytes(root))).as(at.toString()).isInstanceOf(Decoded.Accepted.class);
        }
    }

    @Test
    void occurredAtThatIsNotAnInstantIsNamed() {
        assertViolation(
                rejectMutated(EventType.RunStarted, r -> r.put("occurred_at", "yesterday")),
                "occurred_at",
                "must be an ISO-8601 instant");
    }

    @Test
    void everyViolationIsReportedNotOnlyTheFirst() {
        var v = rejectMutated(EventType.RunStarted, r -> {
            r.put("seq", -3);
            r.put("event_id", UUID.randomUUID().toString().toUpperCase() + "x");
            payload(r).put("repetitions", -1);
        });
        assertThat(v).extracting(Violation::field).contains("seq", "event_id", "payload.repetitions");
        assertThat(((Decoded.Rejected)
                                codec.decode(bytes(tree(EventType.RunStarted).put("seq", -3))))
                        .reason())
                .isEqualTo("seq: must be 1 or more, was -3");
    }

    @Test
    void aRecordOfTheContractIsCheckedOnItsOwnByTheSameRules() {
        ObjectNode spec = codec.mapper().valueToTree(SampleEvents.jobSpec());
        spec.put("repetitions", -2);
        spec.remove("benchmark");
        ((ObjectNode) spec.get("parameters")).put("note", "a\u0000b");
        assertThat(new EnvelopeValidator().validateRecord(spec, JobSpec.class))
                .containsExactlyInAnyOrder(
                        new Violation("benchmark", "missing"),
                        new Violation("parameters.note", "contains the NUL character \\u0000"),
                        new Violation("repetitions", "must not be negative, was -2"));
        assertThat(new EnvelopeValidator().validateRecord(codec.mapper().createArrayNode(), JobSpec.class))
                .containsExactly(new Violation("$", "must be a JSON object"));
    }
}
