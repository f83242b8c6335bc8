package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command side's HTTP API: named admin tokens, keys issued once, rotation and revocation recorded as events. */
@QuarkusTest
class AdminApiIT {

    @Inject
    AgroalDataSource dataSource;

    @ParameterizedTest
    @ValueSource(
            strings = {"/admin/agents", "/admin/agents/x/keys/rotate", "/admin/keys/pk_x/revoke", "/admin/rebuild"})
    void everyAdminCommandAnswers401WithoutANamedToken(String path) {
        given().contentType(ContentType.JSON)
                .body("{\"agent_id\":\"nobody\"}")
                .post(path)
                .then()
                .statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer realm=\"podium-admin\"")
                .body("status", equalTo(401))
                .body("title", equalTo("a named admin token is required"));
        given().auth()
                .oauth2("not-a-token")
                .contentType(ContentType.JSON)
                .body("{\"agent_id\":\"nobody\"}")
                .post(path)
                .then()
                .statusCode(401);
        given().header(
                        "Authorization",
                        "Basic "
                                + java.util.Base64.getEncoder()
                                        .encodeToString("ops:test-ops-token-of-32-chars-or-more"
                                                .getBytes(StandardCharsets.UTF_8)))
                .post(path)
                .then()
                .statusCode(401);
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more-but-longer")
                .post(path)
                .then()
                .statusCode(401);
    }

    @Test
    void theSecretIsReturnedOnceAndNeverStoredInClear() {
        Db db = new Db(dataSource);
        String agentId = "once-" + UUID.randomUUID().toString().substring(0, 8);
        JsonPath issued = given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(Map.of("agent_id", agentId))
                .post("/admin/agents")
                .then()
                .statusCode(201)
                .header("Cache-Control", "no-store")
                .extract()
                .jsonPath();
        String keyId = issued.getString("key_id");
        String secret = issued.getString("secret");
        assertThat(secret).isNotBlank();

        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(Map.of("agent_id", agentId))
                .post("/admin/agents")
                .then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body(not(containsString(secret)))
                .body("detail", equalTo("agent " + agentId + " already has an active key; rotate it to get a new one"));

        String row = (String) db.one("SELECT row_to_json(k)::text FROM agent_key k WHERE key_id = ?", keyId);
        assertThat(row).doesNotContain(secret);
        byte[] ciphertext = (byte[]) db.one("SELECT secret_ciphertext FROM agent_key WHERE key_id = ?", keyId);
        byte[] raw = dev.podium.events.sign.EventSigner.secretBytes(secret);
        assertThat(indexOf(ciphertext, raw)).isEqualTo(-1);
        assertThat(db.count("SELECT count(*) FROM event_store WHERE payload::text LIKE ?", "%" + secret + "%"))
                .isZero();

        List<List<Object>> events = db.rows(
                "SELECT writer, payload->>'actor', payload->>'key_id' FROM event_store WHERE type = 'AgentKeyIssued' AND payload->>'agent_id' = ?",
                agentId);
        assertThat(events).containsExactly(List.of("command:ops", "ops", keyId));
    }

    @Test
    void rotationRetiresTheOldKeyAndRevocationRecordsTheTokenName() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("rotate");
        String first = agent.keyId();
        TestAgent old = agent.rotate();
        assertThat(old.keyId()).isEqualTo(first);
        assertThat(agent.secret()).isNotEqualTo(old.secret());
        assertThat(db.one("SELECT status FROM agent_key WHERE key_id = ?", first))
                .isEqualTo("retired");
        assertThat(db.one("SELECT status FROM agent_key WHERE key_id = ?", agent.keyId()))
                .isEqualTo("active");

        given().auth()
                .oauth2("test-ci-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(Map.of("reason", "host decommissioned"))
                .post("/admin/keys/" + agent.keyId() + "/revoke")
                .then()
                .statusCode(200);
        assertThat(db.rows("SELECT status, revoked_by FROM agent_key WHERE key_id = ?", agent.keyId()))
                .containsExactly(List.of("revoked", "ci"));
        assertThat(db.rows("""
                SELECT writer, payload->>'actor', payload->>'reason' FROM event_store
                WHERE type = 'AgentKeyRevoked' AND payload->>'key_id' = ?""", agent.keyId())).containsExactly(List.of("command:ci", "ci", "host decommissioned"));

        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .post("/admin/keys/pk_does_not_exist/revoke")
                .then()
                .statusCode(404);
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .post("/admin/agents/no-such-agent/keys/rotate")
                .then()
                .statusCode(404);
    }

    @Test
    void anAgentIdThatCouldNotNameAStreamIsRefused() {
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(Map.of("agent_id", "a/b"))
                .post("/admin/agents")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("violations.field", contains("agent_id"));
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(Map.of("pool", "p"))
                .post("/admin/agents")
                .then()
                .statusCode(400)
                .body("violations.field", contains("agent_id"));
        given().auth()
                .oauth2("test-ops-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(Map.of("agent_id", "ok", "pool", "a b"))
                .post("/admin/agents")
                .then()
                .statusCode(400)
                .body("violations.field", contains("pool"));
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
