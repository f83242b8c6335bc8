package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.request.RedriveRequest;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator's view of refused records ({@code GET /admin/rejected}) and their redrive
 * ({@code POST /admin/rejected/redrive}), with records signed by enrolled agents so that they reach validation and the
 * run-owner check.
 */
@QuarkusTest
class RejectedRecordsIT {

    private static final String DEVICE = "intel-gaudi2";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void refusalsAreListedWithTheirReasonsAPageAtATime() {
        Db db = new Db(dataSource);
        TestAgent owner = TestAgent.register("owner");
        TestAgent intruder = TestAgent.register("intruder");
        UUID victim = completedRun(db, owner, 18411);
        List<Envelope> hijacks = List.of(
                SampleEvents.runCompleted(victim, intruder.agentId(), 4, List.of(99999.0, 99999.0, 99999.0)),
                SampleEvents.runCompleted(victim, intruder.agentId(), 5, List.of(99998.0, 99998.0, 99998.0)),
                SampleEvents.runCompleted(victim, intruder.agentId(), 6, List.of(99997.0, 99997.0, 99997.0)));
        Kafka.send(hijacks.stream().map(intruder::signed).toList());
        hijacks.forEach(h -> awaitRejected(db, h));

        String reason = "not the writer: run/" + victim + " is owned by agent '" + owner.agentId() + "'";
        JsonPath first = list(Map.of("reason", reason, "limit", "2"));
        assertThat(first.getList("rejected")).hasSize(2);
        assertThat(first.getList("rejected.reason", String.class))
                .allSatisfy(r -> assertThat(r).startsWith(reason));
        long next = first.getLong("next_after");
        JsonPath second = list(Map.of("reason", reason, "limit", "2", "after", Long.toString(next)));
        assertThat(second.getList("rejected")).hasSize(1);
        assertThat(second.get("next_after") == null).isTrue();
        assertThat(List.of(
                        first.getString("rejected[0].event_id"),
                        first.getString("rejected[1].event_id"),
                        second.getString("rejected[0].event_id")))
                .containsExactlyElementsOf(
                        hijacks.stream().map(h -> h.eventId().toString()).toList());
        assertThat(second.getString("rejected[0].key_id")).isEqualTo(intruder.keyId());
        assertThat(second.getString("rejected[0].topic")).isEqualTo(TestAgent.EVENTS);
        assertThat(second.getBoolean("rejected[0].record.redrivable")).isTrue();

        assertThat(list(Map.of("reason", reason, "topic", "some.other.topic")).getList("rejected"))
                .isEmpty();
    }

    @Test
    void aListedRecordIsAPrefixItsSizeAndAHashNeverTheWholeBytes() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("big");
        UUID run = UUID.randomUUID();
        Envelope started =
                SampleEvents.runStarted(run, agent.agentId(), DEVICE, SampleEvents.referenceKey(18412), Instant.now());
        byte[] big = new String(agent.encode(started), StandardCharsets.UTF_8)
                .replace("\"payload\":{", "\"payload\":{\"message\":\"" + "é".repeat(200_000) + "\",")
                .getBytes(StandardCharsets.UTF_8);
        byte[] binary = new byte[4096];
        ThreadLocalRandom.current().nextBytes(binary);
        binary[0] = (byte) 0xff;
        Kafka.send(List.of(agent.signedBytes(started.streamId(), big), agent.signedBytes(started.streamId(), binary)));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM rejected_event WHERE key_id = ?", agent.keyId()) == 2);

        Map<String, Object> text = find(agent.keyId(), big.length);
        @SuppressWarnings("unchecked")
        Map<String, Object> record = (Map<String, Object>) text.get("record");
        assertThat(record.get("bytes")).isEqualTo(big.length);
        assertThat(record.get("prefix_bytes")).isEqualTo(256);
        assertThat((String) record.get("prefix")).startsWith("{\"event_id\":\"" + started.eventId());
        assertThat(((String) record.get("prefix")).length()).isLessThanOrEqualTo(256);
        assertThat(record.get("sha256_of_kept")).isEqualTo(EventCodec.contentHash(big));

        Map<String, Object> raw = find(agent.keyId(), binary.length);
        @SuppressWarnings("unchecked")
        Map<String, Object> rawRecord = (Map<String, Object>) raw.get("record");
        assertThat(rawRecord.get("prefix")).isNull();
        assertThat((String) rawRecord.get("prefix_hex")).hasSize(512).startsWith("ff");
        assertThat(raw.get("reason"))
                .isEqualTo("invalid: $: not UTF-8 (records are JSON in UTF-8, without a byte order mark)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"limit=0", "limit=201", "limit=abc", "after=-1", "after=1e3"})
    void aBadPageIsRefused(String query) {
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .get("/admin/rejected?" + query)
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("violations.field", contains(query.split("=")[0]));
    }

    @Test
    void listingNeedsANamedToken() {
        given().get("/admin/rejected").then().statusCode(401);
        given().contentType(ContentType.JSON)
                .body("{\"ids\":[1]}")
                .post("/admin/rejected/redrive")
                .then()
                .statusCode(401);
    }

    /**
     * A record an earlier ingest refused (here: it did not know the event type yet), valid today, is stored once by a
     * redrive; redriving it again finds it stored; the refusal keeps one row throughout.
     */
    @Test
    void aRecordValidNowIsStoredOnceHoweverOftenItIsRedriven() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("redrive");
        UUID run = UUID.randomUUID();
        List<Envelope> events = SampleEvents.completedRun(
                run,
                agent.agentId(),
                DEVICE,
                SampleEvents.referenceKey(18413),
                Instant.now(),
                List.of(700.0, 701.0, 702.0));
        sendAndAwaitStored(db, agent, events.subList(0, events.size() - 1));
        Envelope completed = events.get(events.size() - 1);
        byte[] bytes = agent.encode(completed);
        long id = refusedEarlier(
                db, agent, completed, bytes, bytes.length, "invalid: type: unknown event type 'RunCompleted'");

        JsonPath first = redrive(List.of(id));
        assertThat(first.getString("redriven[0].outcome")).isEqualTo("stored");
        assertThat(db.count("SELECT count(*) FROM event_store WHERE event_id = ?", completed.eventId()))
                .isEqualTo(1);
        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", run)).isEqualTo("completed");
        assertThat(db.one("SELECT mean FROM proj_result WHERE run_id = ?", run)).isEqualTo(701.0);

        JsonPath again = redrive(List.of(id, id));
        assertThat(again.getList("redriven")).hasSize(1);
        assertThat(again.getString("redriven[0].outcome")).isEqualTo("duplicate");
        assertThat(db.count("SELECT count(*) FROM event_store WHERE event_id = ?", completed.eventId()))
                .isEqualTo(1);
        assertThat(db.rows(
                        "SELECT reason, redrive_outcome FROM rejected_event WHERE event_id = ?",
                        completed.eventId().toString()))
                .containsExactly(List.of("invalid: type: unknown event type 'RunCompleted'", "duplicate"));
    }

    /** A hijack of another agent's run is refused again, with today's reason; the victim's rows stay as they were. */
    @Test
    void aRecordStillInvalidIsRefusedAgainAndCountedOnce() {
        Db db = new Db(dataSource);
        TestAgent owner = TestAgent.register("victim");
        TestAgent intruder = TestAgent.register("hijacker");
        UUID victim = completedRun(db, owner, 18414);
        List<String> runBefore = db.rows("SELECT r::text FROM proj_run r WHERE run_id = ?", victim).stream()
                .map(r -> (String) r.get(0))
                .toList();
        List<String> resultsBefore =
                db.rows("SELECT r::text FROM proj_result r WHERE run_id = ? ORDER BY metric", victim).stream()
                        .map(r -> (String) r.get(0))
                        .toList();
        Envelope hijack = SampleEvents.runCompleted(victim, intruder.agentId(), 4, List.of(99999.0, 99999.0, 99999.0));
        Kafka.send(List.of(intruder.signed(hijack)));
        long id = awaitRejected(db, hijack);
        String reason = (String) db.one("SELECT reason FROM rejected_event WHERE id = ?", id);

        JsonPath out = redrive(List.of(id, Long.MAX_VALUE));
        assertThat(out.getString("redriven[0].outcome")).isEqualTo("rejected");
        assertThat(out.getString("redriven[0].reason")).isEqualTo(reason);
        assertThat(out.getString("redriven[1].outcome")).isEqualTo("unknown");
        assertThat(out.getInt("outcomes.rejected")).isEqualTo(1);
        assertThat(db.count(
                        "SELECT count(*) FROM rejected_event WHERE event_id = ?",
                        hijack.eventId().toString()))
                .isEqualTo(1);
        assertThat(db.count("SELECT count(*) FROM event_store WHERE event_id = ?", hijack.eventId()))
                .isZero();
        assertThat(db.rows("SELECT r::text FROM proj_run r WHERE run_id = ?", victim).stream()
                        .map(r -> (String) r.get(0)))
                .containsExactlyElementsOf(runBefore);
        assertThat(db.rows("SELECT r::text FROM proj_result r WHERE run_id = ? ORDER BY metric", victim).stream()
                        .map(r -> (String) r.get(0)))
                .containsExactlyElementsOf(resultsBefore);
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .get("/admin/rejected?reason=" + reason.substring(0, 60))
                .then()
                .statusCode(200);
    }

    /** A record its key no longer vouches for is refused on redrive, whatever its first reason was. */
    @Test
    void aRecordWhoseKeyWasRevokedSinceIsNotStoredByARedrive() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("revoked-since");
        UUID run = UUID.randomUUID();
        Envelope started =
                SampleEvents.runStarted(run, agent.agentId(), DEVICE, SampleEvents.referenceKey(18415), Instant.now());
        byte[] bytes = agent.encode(started);
        long id = refusedEarlier(
                db, agent, started, bytes, bytes.length, "invalid: type: unknown event type 'RunStarted'");
        agent.revoke();
        JsonPath out = redrive(List.of(id));
        assertThat(out.getString("redriven[0].outcome")).isEqualTo("rejected");
        assertThat(out.getString("redriven[0].reason")).isEqualTo("forged: key " + agent.keyId() + " is revoked");
        assertThat(db.count("SELECT count(*) FROM event_store WHERE event_id = ?", started.eventId()))
                .isZero();
    }

    /** A row that keeps only a prefix of its record cannot be fed back, and says so. */
    @Test
    void aRecordKeptOnlyAsAPrefixIsNotRedrivable() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("prefix");
        Envelope started = SampleEvents.runStarted(
                UUID.randomUUID(), agent.agentId(), DEVICE, SampleEvents.referenceKey(18416), Instant.now());
        byte[] bytes = agent.encode(started);
        long id = refusedEarlier(
                db,
                agent,
                started,
                java.util.Arrays.copyOf(bytes, 64),
                3_000_000,
                "invalid: $: record of 3000000 bytes is over the limit of 1048576 bytes");
        JsonPath out = redrive(List.of(id));
        assertThat(out.getString("redriven[0].outcome")).isEqualTo("not redrivable");
        assertThat(out.getString("redriven[0].reason")).isEqualTo("only 64 of its 3000000 bytes were kept");
        assertThat(db.count("SELECT count(*) FROM event_store WHERE event_id = ?", started.eventId()))
                .isZero();
        Map<String, Object> listed = find(agent.keyId(), 3_000_000);
        assertThat(listed.get("record"))
                .isEqualTo(Map.of(
                        "bytes",
                        3_000_000,
                        "kept_bytes",
                        64,
                        "sha256_of_kept",
                        EventCodec.contentHash(java.util.Arrays.copyOf(bytes, 64)),
                        "prefix_bytes",
                        64,
                        "prefix",
                        new String(bytes, 0, 64, StandardCharsets.UTF_8),
                        "redrivable",
                        false));
    }

    /** Each bad body and the one field its answer names. */
    static Stream<Arguments> badRedrives() {
        return Stream.of(
                Arguments.of("", "$"),
                Arguments.of("{}", "ids"),
                Arguments.of("{\"ids\": []}", "ids"),
                Arguments.of("{\"ids\": 5}", "ids"),
                Arguments.of("{\"ids\": [\"5\"]}", "ids[0]"),
                Arguments.of("{\"ids\": [-1]}", "ids[0]"),
                Arguments.of("{\"ids\": [1.5]}", "ids[0]"),
                Arguments.of("{\"ids\": [null]}", "ids[0]"),
                Arguments.of("not json", "$"),
                Arguments.of("{\"ids\": [1], \"all\": true}", "all"));
    }

    @ParameterizedTest
    @MethodSource("badRedrives")
    void aBadRedriveRequestIsRefused(String body, String field) {
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(body)
                .post("/admin/rejected/redrive")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("violations", hasSize(1))
                .body("violations[0].field", equalTo(field));
    }

    @Test
    void aRedriveOfMoreThanAHundredIdsIsRefused() {
        List<Long> ids = java.util.stream.LongStream.rangeClosed(1, RedriveRequest.MAX_IDS + 1)
                .boxed()
                .toList();
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(Map.of("ids", ids))
                .post("/admin/rejected/redrive")
                .then()
                .statusCode(400)
                .body("violations", hasSize(1))
                .body("violations[0].field", equalTo("ids"))
                .body("violations[0].message", equalTo("at most 100 per request"));
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .get("/admin/rejected?limit=1&after=" + Long.MAX_VALUE)
                .then()
                .statusCode(200)
                .body("rejected", hasSize(0))
                .body("next_after", nullValue());
    }

    // ---- helpers

    /** A rejected_event row as an earlier ingest left it: the record's bytes (or a prefix) and its signature header. */
    private static long refusedEarlier(Db db, TestAgent agent, Envelope e, byte[] kept, int size, String reason) {
        byte[] whole = agent.encode(e);
        String signature = EventSigner.sign(whole, EventSigner.secretBytes(agent.secret()));
        long offset = 9_000_000_000L + ThreadLocalRandom.current().nextLong(1_000_000_000L);
        return ((Number) db.one(
                        """
                INSERT INTO rejected_event (topic, kafka_partition, kafka_offset, reason, key_id, event_id, stream_id,
                                            record, record_bytes, signature)
                VALUES ('podium.events', 0, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
                        offset,
                        reason,
                        agent.keyId(),
                        e.eventId().toString(),
                        e.streamId(),
                        kept,
                        size,
                        signature))
                .longValue();
    }

    /** A completed run of {@code owner}'s, stored. */
    private static UUID completedRun(Db db, TestAgent owner, int key) {
        UUID run = UUID.randomUUID();
        sendAndAwaitStored(
                db,
                owner,
                SampleEvents.completedRun(
                        run,
                        owner.agentId(),
                        DEVICE,
                        SampleEvents.referenceKey(key),
                        Instant.now(),
                        List.of(500.0, 501.0, 502.0)));
        return run;
    }

    private static void sendAndAwaitStored(Db db, TestAgent agent, List<Envelope> events) {
        Kafka.send(events.stream().map(agent::signed).toList());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE writer = ?", agent.agentId())
                        >= events.size());
    }

    private static long awaitRejected(Db db, Envelope e) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count(
                                "SELECT count(*) FROM rejected_event WHERE event_id = ?",
                                e.eventId().toString())
                        == 1);
        return ((Number) db.one(
                        "SELECT id FROM rejected_event WHERE event_id = ?",
                        e.eventId().toString()))
                .longValue();
    }

    private static JsonPath list(Map<String, String> query) {
        return given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .queryParams(query)
                .get("/admin/rejected")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static JsonPath redrive(List<Long> ids) {
        return given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(Map.of("ids", ids))
                .post("/admin/rejected/redrive")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    /** The listed refusal of this key with a record of that size, paging through the whole list. */
    private static Map<String, Object> find(String keyId, int bytes) {
        long after = 0;
        while (true) {
            JsonPath page = list(Map.of("limit", "200", "after", Long.toString(after)));
            for (Map<String, Object> r : page.<Map<String, Object>>getList("rejected")) {
                @SuppressWarnings("unchecked")
                Map<String, Object> record = (Map<String, Object>) r.get("record");
                if (keyId.equals(r.get("key_id")) && Integer.valueOf(bytes).equals(record.get("bytes"))) {
                    return r;
                }
            }
            if (page.get("next_after") == null) {
                throw new AssertionError("no refusal of " + keyId + " with " + bytes + " bytes");
            }
            after = page.getLong("next_after");
        }
    }
}
