package dev.podium.reliability.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Statistics;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import dev.podium.events.validate.IdentityBinding;
import dev.podium.events.validate.Limits;
import dev.podium.events.validate.ValueChecks;
import dev.podium.reliability.fault.Credentials;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Kinds of bad record, each with the reason ingest must give. A kind makes one record, or one per string field for the
 * injection kinds. Where a kind states no reason (the injection kinds, and a few inputs that are odd but legal), the
 * contract's decoder predicts the outcome: a string that breaks no rule is stored verbatim (bound SQL, escaped pages),
 * one that does is rejected with that rule.
 */
public final class HostileCorpus {

    /** What the records are made from: the case's agent, a second agent, a revoked key, things already stored. */
    public record Context(
            Credentials agent,
            Credentials other,
            Credentials revoked,
            String foreignRunStream,
            Envelope stored,
            String seed) {}

    /** One record and what must become of it: a reason prefix, or {@code null} when it must be stored. */
    public record Bad(ProducerRecord<byte[], byte[]> record, String reason, UUID storedId) {}

    public record Kind(String name, String group, Function<Context, List<Bad>> make) {}

    private static final EventCodec CODEC = new EventCodec();
    private static final AtomicLong COUNTER = new AtomicLong();
    private static final String SQL_1 = "'; DROP TABLE event_store; --";
    private static final String SQL_2 = "Robert'); DELETE FROM agent_key WHERE ('1'='1";
    private static final String HTML_1 = "<script>alert(document.cookie)</script>";
    private static final String HTML_2 = "\"><img src=x onerror=alert(1)><!--";

    private HostileCorpus() {}

    public static List<Kind> kinds() {
        List<Kind> k = new ArrayList<>();
        // ---- not JSON, or not an object
        k.add(raw("truncated JSON", "malformed", c -> cut(valid(c), 0.5), "invalid: $: malformed JSON"));
        k.add(raw("plain text", "malformed", c -> utf8("this is not an event"), "invalid: $: malformed JSON"));
        k.add(raw(
                "trailing garbage after the object",
                "malformed",
                c -> concat(valid(c), utf8("}{\"x\":1}")),
                "invalid: $: malformed JSON"));
        k.add(raw(
                "JSON array at the top",
                "malformed",
                c -> utf8("[" + new String(valid(c), StandardCharsets.UTF_8) + "]"),
                "invalid: $"));
        k.add(raw("JSON string at the top", "malformed", c -> utf8("\"RunProgress\""), "invalid: $"));
        k.add(raw("JSON number at the top", "malformed", c -> utf8("42"), "invalid: $"));
        k.add(raw("JSON null literal", "malformed", c -> utf8("null"), "invalid: $"));
        k.add(raw("empty object", "empty and null", c -> utf8("{}"), "invalid: "));
        k.add(raw("empty value (0 bytes)", "empty and null", c -> new byte[0], "invalid: $: empty record"));
        k.add(new Kind(
                "null value (tombstone)",
                "empty and null",
                c -> List.of(new Bad(
                        Credentials.record(
                                key(c),
                                null,
                                c.agent().keyId(),
                                EventSigner.sign(
                                        new byte[0],
                                        EventSigner.secretBytes(c.agent().secret()))),
                        "forged: signature does not match",
                        null))));
        k.add(raw(
                "UTF-8 byte order mark before the object",
                "encoding",
                c -> concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, valid(c)),
                "invalid: $: not UTF-8"));
        // ---- encodings
        k.add(raw(
                "invalid UTF-8 in a string",
                "encoding",
                c -> replaceBytes(valid(c), "measure", new byte[] {'m', (byte) 0xC3, (byte) 0x28, 'x'}),
                "invalid: $: not UTF-8"));
        k.add(raw(
                "UTF-16 encoded record",
                "encoding",
                c -> new String(valid(c), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16),
                "invalid: $: not UTF-8"));
        k.add(raw(
                "raw NUL byte in a string",
                "encoding",
                c -> replaceBytes(valid(c), "measure", new byte[] {'m', 0, 'x'}),
                "invalid: $: malformed JSON"));
        k.add(tree(
                "escaped \\u0000 in a string", "encoding", t -> payload(t).put("phase", "meas\u0000ure"), "invalid: "));
        k.add(tree("\\u0000 in the agent id", "encoding", t -> t.put("agent_id", "a\u0000b"), "invalid: "));
        k.add(tree("lone surrogate in a string", "encoding", t -> payload(t).put("message", "x\ud800y"), null));
        // ---- wrong types
        k.add(tree("event_id not a UUID", "wrong types", t -> t.put("event_id", "not-a-uuid"), "invalid: event_id"));
        k.add(tree("event_id a number", "wrong types", t -> t.put("event_id", 12345), "invalid: event_id"));
        k.add(tree("seq a string", "wrong types", t -> t.put("seq", "two"), "invalid: seq"));
        k.add(tree("seq zero", "wrong types", t -> t.put("seq", 0), "invalid: seq"));
        k.add(tree("seq negative", "wrong types", t -> t.put("seq", -5), "invalid: seq"));
        k.add(tree("seq fractional", "wrong types", t -> t.put("seq", 2.5), "invalid: seq"));
        k.add(tree("seq 1e308", "wrong types", t -> t.put("seq", 1e308), "invalid: seq"));
        k.add(tree("payload an array", "wrong types", t -> t.set("payload", t.arrayNode()), "invalid: payload"));
        k.add(tree("payload a string", "wrong types", t -> t.put("payload", "{}"), "invalid: payload"));
        k.add(tree("payload null", "empty and null", t -> t.putNull("payload"), "invalid: payload"));
        k.add(tree("type null", "empty and null", t -> t.putNull("type"), "invalid: type"));
        k.add(tree("agent_id empty string", "empty and null", t -> t.put("agent_id", ""), "invalid: agent_id"));
        k.add(tree(
                "occurred_at not a date",
                "wrong types",
                t -> t.put("occurred_at", "yesterday"),
                "invalid: occurred_at"));
        k.add(tree("boolean for a number", "wrong types", t -> payload(t).put("step", true), "invalid: payload.step"));
        k.add(tree(
                "object for a string",
                "wrong types",
                t -> payload(t).set("phase", t.objectNode().put("a", 1)),
                "invalid: payload.phase"));
        // ---- unknown type or version, wrong stream
        k.add(tree("unknown type", "unknown type or version", t -> t.put("type", "RunExploded"), "invalid: type"));
        k.add(tree(
                "type in lower case", "unknown type or version", t -> t.put("type", "runprogress"), "invalid: type"));
        k.add(tree(
                "unknown schema_version",
                "unknown type or version",
                t -> t.put("schema_version", 99),
                "invalid: schema_version"));
        k.add(tree(
                "schema_version zero",
                "unknown type or version",
                t -> t.put("schema_version", 0),
                "invalid: schema_version"));
        k.add(tree(
                "malformed stream_id",
                "unknown type or version",
                t -> t.put("stream_id", "run/not-a-uuid"),
                "invalid: stream_id"));
        k.add(tree(
                "run event on an agent stream",
                "unknown type or version",
                t -> t.put("stream_id", "agent/" + t.get("agent_id").asText() + "/" + UUID.randomUUID()),
                "invalid: "));
        // ---- missing fields
        for (String field : List.of(
                "event_id", "type", "schema_version", "stream_id", "seq", "agent_id", "occurred_at", "payload")) {
            k.add(tree("missing " + field, "missing fields", t -> t.remove(field), "invalid: "));
        }
        k.add(tree(
                "missing payload.run_id",
                "missing fields",
                t -> payload(t).remove("run_id"),
                "invalid: payload.run_id"));
        // ---- numbers and times
        k.add(raw(
                "NaN literal",
                "numbers",
                c -> replaceBytes(valid(c), "\"step\":", utf8("\"step\":NaN,\"x\":")),
                "invalid: $: malformed JSON"));
        k.add(raw(
                "Infinity literal",
                "numbers",
                c -> replaceBytes(valid(c), "\"step\":", utf8("\"step\":Infinity,\"x\":")),
                "invalid: $: malformed JSON"));
        k.add(raw("1e400 (overflows a double)", "numbers", c -> metricValue(c, "1e400"), "invalid: "));
        k.add(raw("negative metric value", "numbers", c -> metricValue(c, "-5.0"), "invalid: "));
        k.add(raw(
                "metric value 1e308",
                "numbers",
                c -> metricValue(c, "1e308"),
                "invalid: payload.metrics[0].values[0]: must be at most"));
        k.add(raw("metric value -1e308", "numbers", c -> metricValue(c, "-1e308"), "invalid: "));
        k.add(tree("negative step", "numbers", t -> payload(t).put("step", -1), "invalid: payload.step"));
        k.add(tree("step 1e308", "numbers", t -> payload(t).put("step", 1e308), "invalid: payload.step"));
        k.add(tree(
                "integer with 400 digits",
                "numbers",
                t -> payload(t).put("total_steps", new java.math.BigInteger("9".repeat(400))),
                "invalid: "));
        k.add(tree(
                "occurred_at ten years ahead",
                "numbers",
                t -> t.put(
                        "occurred_at",
                        Instant.now()
                                .plus(3650, ChronoUnit.DAYS)
                                .truncatedTo(ChronoUnit.SECONDS)
                                .toString()),
                "invalid: occurred_at"));
        k.add(tree(
                "occurred_at two days ahead",
                "numbers",
                t -> t.put(
                        "occurred_at",
                        Instant.now()
                                .plus(2, ChronoUnit.DAYS)
                                .truncatedTo(ChronoUnit.SECONDS)
                                .toString()),
                "invalid: occurred_at"));
        k.add(tree("occurred_at in year 1", "numbers", t -> t.put("occurred_at", "0001-01-01T00:00:00Z"), null));
        // ---- sizes
        k.add(tree(
                "string over the length limit",
                "sizes",
                t -> payload(t).put("message", "x".repeat(Limits.MAX_TEXT_CHARS + 1)),
                "invalid: payload.message"));
        k.add(raw("huge array (metric with 20,000 values)", "sizes", c -> hugeMetric(c, 20_000), "invalid: "));
        k.add(tree(
                "unknown field with a huge array",
                "sizes",
                t -> {
                    ArrayNode a = payload(t).putArray("extra");
                    for (int i = 0; i < 20_000; i++) {
                        a.add(i);
                    }
                },
                "invalid: "));
        k.add(raw(
                "JSON nested 10,000 deep",
                "sizes",
                c -> utf8("{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000)),
                "invalid: $: malformed JSON"));
        k.add(tree(
                "payload nested 40 deep",
                "sizes",
                t -> {
                    ObjectNode n = payload(t).putObject("extra");
                    for (int i = 0; i < 40; i++) {
                        n = n.putObject("x");
                    }
                },
                "invalid: "));
        k.add(raw(
                "record over 1 MiB",
                "sizes",
                c -> padTo(c, Limits.MAX_RECORD_BYTES + 1),
                "too large after decompression: 1048577 bytes, over the limit"));
        k.add(raw(
                "record of 2 MiB",
                "sizes",
                c -> padTo(c, 2 * Limits.MAX_RECORD_BYTES),
                "too large after decompression: 2097152 bytes, over the limit"));
        // ---- signatures and keys
        k.add(new Kind(
                "unsigned (no headers)",
                "signatures",
                c -> one(
                        Credentials.record(key(c), valid(c), null, null),
                        "unsigned: no well-formed podium-key-id header")));
        k.add(new Kind(
                "key id without signature",
                "signatures",
                c -> one(
                        Credentials.record(key(c), valid(c), c.agent().keyId(), null),
                        "unsigned: no podium-signature header")));
        k.add(new Kind(
                "signature without key id",
                "signatures",
                c -> one(
                        Credentials.record(
                                key(c), valid(c), null, sign(valid(c), c.agent().secret())),
                        "unsigned: no well-formed podium-key-id header")));
        k.add(new Kind(
                "malformed key id header",
                "signatures",
                c -> one(
                        Credentials.record(
                                key(c),
                                valid(c),
                                "pk/../'; --",
                                sign(valid(c), c.agent().secret())),
                        "unsigned: no well-formed podium-key-id header")));
        k.add(new Kind("forged signature (wrong secret)", "signatures", c -> {
            byte[] v = valid(c);
            return one(
                    Credentials.record(key(c), v, c.agent().keyId(), sign(v, EventSigner.newSecret())),
                    "forged: signature does not match");
        }));
        k.add(new Kind(
                "garbage signature",
                "signatures",
                c -> one(
                        Credentials.record(key(c), valid(c), c.agent().keyId(), "not-base64-at-all!!"),
                        "forged: signature does not match")));
        k.add(new Kind("value changed after signing", "signatures", c -> {
            byte[] v = valid(c);
            String sig = sign(v, c.agent().secret());
            byte[] tampered = new String(v, StandardCharsets.UTF_8)
                    .replace("\"step\":", "\"step\":1")
                    .getBytes(StandardCharsets.UTF_8);
            return one(
                    Credentials.record(key(c), tampered, c.agent().keyId(), sig), "forged: signature does not match");
        }));
        k.add(new Kind("unknown key id", "signatures", c -> {
            byte[] v = valid(c);
            return one(
                    Credentials.record(key(c), v, "pk_nobody_" + c.seed(), sign(v, EventSigner.newSecret())),
                    "forged: unknown key pk_nobody_");
        }));
        k.add(new Kind("revoked key", "signatures", c -> {
            Envelope e = progress(c.revoked().agentId());
            return one(c.revoked().signed(e), "forged: key " + c.revoked().keyId() + " is revoked");
        }));
        // ---- writers
        k.add(new Kind(
                "signed with another agent's key",
                "writers",
                c -> one(
                        c.other().signedBytes(key(c), valid(c)),
                        "not the writer: agent_id '" + c.agent().agentId() + "' is not the agent of key")));
        k.add(new Kind("a run stream another agent owns", "writers", c -> {
            UUID run = UUID.fromString(c.foreignRunStream().substring("run/".length()));
            Envelope e = SampleEvents.envelope(
                    StreamId.run(run),
                    1000 + COUNTER.incrementAndGet(),
                    c.agent().agentId(),
                    SampleEvents.AT,
                    SampleEvents.runProgress(run, c.agent().agentId(), 2, 1, 1, 10)
                            .payload());
            return one(
                    c.agent().signed(e),
                    "not the writer: " + c.foreignRunStream() + " is owned by agent '"
                            + c.other().agentId() + "'");
        }));
        k.add(new Kind("another agent's agent stream", "writers", c -> {
            Envelope e = Envelope.of(
                    UUID.randomUUID(),
                    StreamId.agent(c.other().agentId(), UUID.randomUUID()),
                    1,
                    c.agent().agentId(),
                    SampleEvents.AT,
                    SampleEvents.agentRegistered(
                                    c.agent().agentId(), UUID.randomUUID(), SampleEvents.DEVICE_ID, SampleEvents.AT)
                            .payload());
            return one(c.agent().signed(e), "invalid: agent_id: '" + c.agent().agentId() + "' does not own stream");
        }));
        k.add(new Kind("a command-side job stream", "writers", c -> {
            Envelope a = SampleEvents.jobAssigned(
                    UUID.randomUUID(), UUID.randomUUID(), c.agent().agentId(), 1, 1, SampleEvents.AT);
            Envelope e = new Envelope(
                    a.eventId(), a.type(), 1, a.streamId(), 1, c.agent().agentId(), a.occurredAt(), a.payload());
            return one(
                    c.agent().signed(e),
                    "not the writer: " + e.streamId() + " is written by ingest's command side only");
        }));
        // ---- identities in the payload that the envelope does not allow
        k.add(new Kind("RunCompleted on its own stream naming another agent's run", "identities", c -> {
            UUID victim = UUID.fromString(c.foreignRunStream().substring("run/".length()));
            UUID own = UUID.randomUUID();
            Envelope e = Envelope.of(
                    UUID.randomUUID(),
                    StreamId.run(own),
                    1,
                    c.agent().agentId(),
                    SampleEvents.AT,
                    SampleEvents.runCompleted(victim, c.agent().agentId(), 1, List.of(99999.0, 99999.0, 99999.0))
                            .payload());
            return one(
                    c.agent().signed(e),
                    "not the writer: payload.run_id: '" + victim + "' is not the run of stream 'run/" + own + "'");
        }));
        k.add(new Kind("run stream with its UUID in upper case", "identities", c -> {
            Envelope p = progress(c.agent().agentId());
            String upper = p.streamId().toUpperCase(java.util.Locale.ROOT).replace("RUN/", "run/");
            Envelope e =
                    new Envelope(p.eventId(), p.type(), 1, upper, 1, c.agent().agentId(), p.occurredAt(), p.payload());
            return one(
                    c.agent().signedBytes(key(c), CODEC.encode(e)),
                    "invalid: stream_id: '" + upper + "' is not a valid stream id: its UUID must be in lower case");
        }));
        k.add(new Kind("JobClaimed naming another agent", "identities", c -> {
            Envelope e = SampleEvents.jobClaimed(
                    UUID.randomUUID(), UUID.randomUUID(), c.other().agentId(), SampleEvents.POOL, SampleEvents.AT);
            Envelope forged = new Envelope(
                    e.eventId(), e.type(), 1, e.streamId(), 1, c.agent().agentId(), e.occurredAt(), e.payload());
            return one(
                    c.agent().signed(forged),
                    "not the writer: payload.agent_id: '" + c.other().agentId() + "' is not the writer '"
                            + c.agent().agentId() + "'");
        }));
        k.add(new Kind("AgentRegistered naming another boot", "identities", c -> {
            UUID boot = UUID.randomUUID();
            UUID named = UUID.randomUUID();
            Envelope e = Envelope.of(
                    UUID.randomUUID(),
                    StreamId.agent(c.agent().agentId(), boot),
                    1,
                    c.agent().agentId(),
                    SampleEvents.AT,
                    SampleEvents.agentRegistered(c.agent().agentId(), named, SampleEvents.DEVICE_ID, SampleEvents.AT)
                            .payload());
            return one(
                    c.agent().signed(e),
                    "not the writer: payload.boot_id: '" + named + "' is not the boot of stream '" + e.streamId()
                            + "'");
        }));
        // ---- figures the raw values do not give
        k.add(new Kind(
                "RunCompleted whose mean its values do not give",
                "figures",
                c -> one(
                        c.agent()
                                .signed(figures(
                                        c,
                                        (m, s) -> new Statistics(
                                                s.n(),
                                                99999.0,
                                                s.median(),
                                                s.stdev(),
                                                s.min(),
                                                s.max(),
                                                s.ci95Low(),
                                                s.ci95High(),
                                                s.cv()),
                                        true,
                                        List.of())),
                        "invalid: payload.metrics[0].statistics.mean: 99999.0 is not what the 3 values give (501.0)")));
        k.add(
                new Kind(
                        "RunCompleted whose interval its values do not give",
                        "figures",
                        c -> one(
                                c.agent()
                                        .signed(figures(
                                                c,
                                                (m, s) -> new Statistics(
                                                        s.n(),
                                                        s.mean(),
                                                        s.median(),
                                                        s.stdev(),
                                                        s.min(),
                                                        s.max(),
                                                        1.0,
                                                        1001.0,
                                                        s.cv()),
                                                true,
                                                List.of())),
                                "invalid: payload.metrics[0].statistics.ci95: [1.0, 1001.0] is not the interval the 3 values give")));
        k.add(new Kind(
                "RunCompleted claiming more values than it sends",
                "figures",
                c -> one(
                        c.agent()
                                .signed(figures(
                                        c,
                                        (m, s) -> new Statistics(
                                                4,
                                                s.mean(),
                                                s.median(),
                                                s.stdev(),
                                                s.min(),
                                                s.max(),
                                                s.ci95Low(),
                                                s.ci95High(),
                                                s.cv()),
                                        true,
                                        List.of())),
                        "invalid: payload.metrics[0].statistics.n: 4 is not the 3 values sent")));
        k.add(new Kind(
                "RunCompleted whose count would overflow the leaderboard's",
                "figures",
                c -> one(
                        c.agent()
                                .signed(figures(
                                        c,
                                        (m, s) -> new Statistics(
                                                Integer.MAX_VALUE,
                                                s.mean(),
                                                s.median(),
                                                s.stdev(),
                                                s.min(),
                                                s.max(),
                                                s.ci95Low(),
                                                s.ci95High(),
                                                s.cv()),
                                        false,
                                        List.of())),
                        "invalid: payload.metrics[0].statistics.n: 2147483647 is over the limit of 1000000")));
        k.add(new Kind(
                "RunCompleted whose cv check passes against its values",
                "figures",
                c -> one(
                        c.agent()
                                .signed(figures(
                                        c,
                                        (m, s) -> s,
                                        true,
                                        List.of(new ValidityCheck(
                                                "cv_below_10pct",
                                                true,
                                                "cv of " + SampleEvents.THROUGHPUT_METRIC + " = 1.00%")),
                                        100.0,
                                        600.0,
                                        1200.0)),
                        "invalid: payload.validity[0].passed: cv_below_10pct cannot pass: the cv of "
                                + SampleEvents.THROUGHPUT_METRIC + "'s values is 86.96%")));
        k.add(new Kind(
                "RunCompleted whose min_duration its duration cannot hold",
                "figures",
                c -> one(
                        c.agent().signed(checks(c, m -> SampleEvents.valueChecks(m, 3, List.of(60.0, 60.0, 60.0)))),
                        "invalid: payload.validity[3].passed: min_duration cannot pass: 3 repetitions of 60.00 s or more do not"
                                + " fit in the run's duration of 127.5 s")));
        k.add(new Kind(
                "RunCompleted whose min_duration passes under 2 s",
                "figures",
                c -> one(
                        c.agent()
                                .signed(checks(
                                        c,
                                        m -> List.of(
                                                ValueChecks.repetitions(3, 3),
                                                ValueChecks.cv(m),
                                                ValueChecks.positiveFinite(m),
                                                new ValidityCheck(
                                                        "min_duration",
                                                        true,
                                                        "shortest repetition 0.40 s (0 s or more wanted)")))),
                        "invalid: payload.validity[3].passed: min_duration cannot pass: its shortest repetition ran 0.40 s,"
                                + " under 2 s")));
        k.add(new Kind(
                "RunCompleted whose min_repetitions counts more than its values",
                "figures",
                c -> one(
                        c.agent()
                                .signed(checks(
                                        c,
                                        m -> List.of(
                                                ValueChecks.repetitions(5, 5),
                                                ValueChecks.cv(m),
                                                ValueChecks.positiveFinite(m),
                                                ValueChecks.duration(List.of(40.0, 40.0, 40.0))))),
                        "invalid: payload.validity[0].passed: min_repetitions cannot pass: it claims 5 repetitions where the"
                                + " metrics have 3 values each")));
        k.add(new Kind(
                "RunCompleted that passes every check it sends and leaves out the cv check",
                "figures",
                c -> one(
                        c.agent()
                                .signed(checks(
                                        c,
                                        m -> List.of(
                                                ValueChecks.repetitions(3, 3),
                                                ValueChecks.positiveFinite(m),
                                                ValueChecks.duration(List.of(40.0, 40.0, 40.0))))),
                        "invalid: payload.validity: a run whose checks all pass must carry the checks the server re-evaluates;"
                                + " missing: cv_below_10pct")));
        // ---- replays with other content
        k.add(new Kind("replayed event id with changed content", "conflicts", c -> {
            Envelope s = c.stored();
            Envelope e = new Envelope(
                    s.eventId(), s.type(), 1, s.streamId(), s.seq() + 10_000, s.agentId(), s.occurredAt(), s.payload());
            return one(c.agent().signed(e), "conflict: ");
        }));
        k.add(new Kind("stored stream and seq with another event id", "conflicts", c -> {
            Envelope s = c.stored();
            Envelope e = new Envelope(
                    UUID.randomUUID(), s.type(), 1, s.streamId(), s.seq(), s.agentId(), s.occurredAt(), s.payload());
            return one(c.agent().signed(e), "conflict: ");
        }));
        // ---- injection in every string field: stored verbatim or rejected by a rule, never executed
        for (String payload : List.of(SQL_1, SQL_2, HTML_1, HTML_2)) {
            String group = payload.contains("<") ? "HTML/script in every string field" : "SQL in every string field";
            k.add(new Kind(group + ": " + payload, group, c -> everyStringField(c, payload)));
        }
        return List.copyOf(k);
    }

    // ---- builders

    private static Kind raw(String name, String group, Function<Context, byte[]> value, String reason) {
        return new Kind(name, group, c -> {
            byte[] v = value.apply(c);
            String expected = reason != null ? reason : predict(c, v);
            return List.of(new Bad(c.agent().signedBytes(key(c), v), expected, expected == null ? eventId(v) : null));
        });
    }

    private static Kind tree(String name, String group, Consumer<ObjectNode> change, String reason) {
        return raw(
                name,
                group,
                c -> {
                    ObjectNode t = CODEC.toTree(progress(c.agent().agentId()));
                    change.accept(t);
                    return json(t);
                },
                reason);
    }

    private static List<Bad> one(ProducerRecord<byte[], byte[]> r, String reason) {
        return List.of(new Bad(r, reason, null));
    }

    /** A valid RunProgress on a run stream of its own. */
    static Envelope progress(String agentId) {
        UUID run =
                SampleEvents.uuid("hostile-run-" + agentId + "-" + COUNTER.incrementAndGet() + "-" + UUID.randomUUID());
        return SampleEvents.runProgress(run, agentId, 1, 1, 1, 10);
    }

    static byte[] valid(Context c) {
        return CODEC.encode(progress(c.agent().agentId()));
    }

    private static String key(Context c) {
        return c.stored().streamId();
    }

    private static List<Bad> everyStringField(Context c, String payload) {
        UUID run = SampleEvents.uuid("inject-" + c.seed() + "-" + COUNTER.incrementAndGet());
        Envelope template = SampleEvents.runStarted(
                run, c.agent().agentId(), SampleEvents.DEVICE_ID, SampleEvents.referenceKey(0), SampleEvents.AT);
        List<List<Object>> sites = new ArrayList<>();
        collectStrings(CODEC.toTree(template), new ArrayList<>(), sites);
        List<Bad> out = new ArrayList<>();
        for (List<Object> site : sites) {
            UUID r = UUID.randomUUID();
            ObjectNode t = CODEC.toTree(SampleEvents.runStarted(
                    r, c.agent().agentId(), SampleEvents.DEVICE_ID, SampleEvents.referenceKey(0), SampleEvents.AT));
            t.put("event_id", UUID.randomUUID().toString());
            JsonNode parent = t;
            for (Object step : site.subList(0, site.size() - 1)) {
                parent = step instanceof Integer i ? parent.get(i) : parent.get((String) step);
            }
            Object last = site.get(site.size() - 1);
            if (last instanceof Integer i) {
                ((ArrayNode) parent).set(i, t.textNode(payload));
            } else {
                ((ObjectNode) parent).put((String) last, payload);
            }
            byte[] v = json(t);
            String expected = predict(c, v);
            out.add(new Bad(c.agent().signedBytes(key(c), v), expected, expected == null ? eventId(v) : null));
        }
        return out;
    }

    /** What ingest must do with a signed record of the case's agent, by the contract's decoder and the writer rules. */
    static String predict(Context c, byte[] value) {
        Decoded d = CODEC.decode(value);
        if (d instanceof Decoded.Rejected r) {
            return "invalid: " + r.reason();
        }
        Envelope e = ((Decoded.Accepted) d).envelope();
        if (!c.agent().agentId().equals(e.agentId())) {
            return "not the writer: ";
        }
        return IdentityBinding.violation(e).map(v -> "not the writer: " + v).orElse(null);
    }

    private static void collectStrings(JsonNode node, List<Object> steps, List<List<Object>> out) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                List<Object> s = new ArrayList<>(steps);
                s.add(e.getKey());
                collectStrings(e.getValue(), s, out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<Object> s = new ArrayList<>(steps);
                s.add(i);
                collectStrings(node.get(i), s, out);
            }
        } else if (node.isTextual()) {
            out.add(List.copyOf(steps));
        }
    }

    private static ObjectNode payload(ObjectNode t) {
        return (ObjectNode) t.get("payload");
    }

    private static byte[] metricValue(Context c, String literal) {
        Envelope e = SampleEvents.runCompleted(UUID.randomUUID(), c.agent().agentId(), 3, List.of(500.0, 501.0, 502.0));
        String json = new String(CODEC.encode(e), StandardCharsets.UTF_8);
        return utf8(json.replaceFirst("\"values\":\\[500\\.0", "\"values\":[" + literal));
    }

    /**
     * A RunCompleted on a run stream of its own whose one metric has the values 500, 501, 502, or {@code otherValues}
     * (none unless {@code withValues}), and the statistics {@code change} makes of theirs, with {@code checks}.
     */
    private static Envelope figures(
            Context c,
            java.util.function.BiFunction<Metric, Statistics, Statistics> change,
            boolean withValues,
            List<ValidityCheck> checks,
            Double... otherValues) {
        UUID run = UUID.randomUUID();
        RunCompleted honest = (RunCompleted) SampleEvents.runCompleted(
                        run,
                        c.agent().agentId(),
                        3,
                        otherValues.length > 0 ? List.of(otherValues) : List.of(500.0, 501.0, 502.0))
                .payload();
        Metric m = honest.metrics().get(0);
        Metric changed = new Metric(
                m.name(),
                m.unit(),
                m.direction(),
                m.scope(),
                m.warmupExcluded(),
                withValues ? m.values() : null,
                change.apply(m, m.statistics()));
        return Envelope.of(
                UUID.randomUUID(),
                StreamId.run(run),
                1,
                c.agent().agentId(),
                SampleEvents.AT,
                new RunCompleted(run, List.of(changed), checks, honest.durationSeconds()));
    }

    /**
     * An honest RunCompleted on a run stream of its own (the values 500, 501, 502 in three repetitions of 42.5 s) with
     * the checks {@code checks} makes for its metric instead of its own.
     */
    private static Envelope checks(Context c, Function<Metric, List<ValidityCheck>> checks) {
        UUID run = UUID.randomUUID();
        RunCompleted honest =
                (RunCompleted) SampleEvents.runCompleted(run, c.agent().agentId(), 1, List.of(500.0, 501.0, 502.0))
                        .payload();
        return Envelope.of(
                UUID.randomUUID(),
                StreamId.run(run),
                1,
                c.agent().agentId(),
                SampleEvents.AT,
                new RunCompleted(
                        run, honest.metrics(), checks.apply(honest.metrics().get(0)), honest.durationSeconds()));
    }

    private static byte[] hugeMetric(Context c, int n) {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            values.add(500.0 + (i % 7));
        }
        return CODEC.encode(
                SampleEvents.runCompleted(UUID.randomUUID(), c.agent().agentId(), 3, values));
    }

    private static byte[] padTo(Context c, int size) {
        ObjectNode t = CODEC.toTree(progress(c.agent().agentId()));
        int base = json(t).length;
        payload(t).put("padding", "");
        int overhead = json(t).length - base;
        payload(t).put("padding", "p".repeat(size - base - overhead));
        byte[] v = json(t);
        if (v.length != size) {
            throw new IllegalStateException("padded to " + v.length + ", not " + size);
        }
        return v;
    }

    static UUID eventId(byte[] value) {
        try {
            return UUID.fromString(
                    CODEC.mapper().readTree(value).get("event_id").asText());
        } catch (Exception e) {
            throw new IllegalStateException("a record expected to be stored has no event id", e);
        }
    }

    private static String sign(byte[] v, String secret) {
        return EventSigner.sign(v, EventSigner.secretBytes(secret));
    }

    private static byte[] json(JsonNode t) {
        try {
            return CODEC.mapper().writeValueAsBytes(t);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] cut(byte[] v, double fraction) {
        return java.util.Arrays.copyOf(v, (int) (v.length * fraction));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] replaceBytes(byte[] v, String marker, byte[] replacement) {
        byte[] m = utf8(marker);
        outer:
        for (int i = 0; i <= v.length - m.length; i++) {
            for (int j = 0; j < m.length; j++) {
                if (v[i + j] != m[j]) {
                    continue outer;
                }
            }
            byte[] out = new byte[v.length - m.length + replacement.length];
            System.arraycopy(v, 0, out, 0, i);
            System.arraycopy(replacement, 0, out, i, replacement.length);
            System.arraycopy(v, i + m.length, out, i + replacement.length, v.length - i - m.length);
            return out;
        }
        throw new IllegalStateException("marker " + marker + " not in the record");
    }
}
