package dev.podium.ingest.testing;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.sign.EventSigner;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** An agent with a key issued through the admin API, signing records the way runner-agent does. */
public final class TestAgent {

    public static final String ADMIN_TOKEN = "test-ops-token-of-32-chars-or-more";
    public static final String EVENTS = "podium.events";
    private static final EventCodec CODEC = new EventCodec();

    private final String agentId;
    private String keyId;
    private String secret;

    private TestAgent(String agentId, String keyId, String secret) {
        this.agentId = agentId;
        this.keyId = keyId;
        this.secret = secret;
    }

    /** Registers a new agent with a unique id starting with {@code prefix}, its key bound to the default pool. */
    public static TestAgent register(String prefix) {
        return register(prefix, "default");
    }

    /** Registers a new agent whose key is bound to {@code pool}: the pool its claims may be granted in. */
    public static TestAgent register(String prefix, String pool) {
        String agentId = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        JsonPath body = given().auth()
                .oauth2(ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(Map.of("agent_id", agentId, "pool", pool))
                .post("/admin/agents")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        return new TestAgent(agentId, body.getString("key_id"), body.getString("secret"));
    }

    /** Rotates this agent's key; the old key and secret are returned so a test can keep signing with them. */
    public TestAgent rotate() {
        TestAgent old = new TestAgent(agentId, keyId, secret);
        JsonPath body = given().auth()
                .oauth2(ADMIN_TOKEN)
                .post("/admin/agents/" + agentId + "/keys/rotate")
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
        keyId = body.getString("key_id");
        secret = body.getString("secret");
        return old;
    }

    public void revoke() {
        given().auth()
                .oauth2(ADMIN_TOKEN)
                .post("/admin/keys/" + keyId + "/revoke")
                .then()
                .statusCode(200);
    }

    public String agentId() {
        return agentId;
    }

    public String keyId() {
        return keyId;
    }

    public String secret() {
        return secret;
    }

    public byte[] encode(Envelope e) {
        return CODEC.encode(e);
    }

    /** The record an agent would produce: key = stream id, signed headers. */
    public ProducerRecord<byte[], byte[]> signed(Envelope e) {
        return signedBytes(e.streamId(), encode(e));
    }

    /** Sends the events signed by this agent and waits (a minute at most) until the store holds every one of them. */
    public void sendAndWait(Db db, List<Envelope> events) {
        long stored = db.count("SELECT count(*) FROM event_store WHERE writer = ?", agentId);
        Kafka.send(events.stream().map(this::signed).toList());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE writer = ?", agentId)
                        == stored + events.size());
    }

    public ProducerRecord<byte[], byte[]> signedBytes(String streamId, byte[] value) {
        return record(streamId, value, keyId, EventSigner.sign(value, EventSigner.secretBytes(secret)));
    }

    public static ProducerRecord<byte[], byte[]> record(String streamId, byte[] value, String keyId, String signature) {
        RecordHeaders headers = new RecordHeaders();
        if (keyId != null) {
            headers.add(EventSigner.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.UTF_8));
        }
        if (signature != null) {
            headers.add(EventSigner.SIGNATURE_HEADER, signature.getBytes(StandardCharsets.UTF_8));
        }
        return new ProducerRecord<>(
                EVENTS, null, streamId == null ? null : streamId.getBytes(StandardCharsets.UTF_8), value, headers);
    }
}
