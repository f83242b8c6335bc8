package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.ingest.command.request.NewCampaignRequest;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Hostile admin bodies: many violations at once, unknown fields, wrong types, oversized strings, hostile YAML. Each is
 * answered 400 {@code application/problem+json} naming every field at fault, repeats no secret, and changes nothing.
 */
@QuarkusTest
class HostileAdminInputIT {

    private static final String SECRET = "hf_" + UUID.randomUUID().toString().replace("-", "");
    private static final String SPEC = """
            "spec": {"benchmark": "reference-finetune", "adapter": "reference", "warmup_steps": 0, "timeout_seconds": 60,
                     "nodes": 1, "devices_per_node": 1""";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void oneCampaignWithManyViolationsIsAnsweredWithAllOfThem() {
        long before = campaigns();
        String body = """
                {"name": "%s", "pools": ["gpu-a", "bad pool", "../etc"], "schedule": "sometimes", "owner": "me",
                 "secrets": {"NOT A NAME": "%s", "EMPTY": "", "NESTED": {"value": "%s"}, "HF_TOKEN": "%s"},
                 %s, "repetitions": -1, "environment": {"HF_TOKEN": "x"}, "command": "echo", "extra": 1}}""".formatted("n".repeat(NewCampaignRequest.MAX_NAME + 1), SECRET, SECRET, SECRET, SPEC);
        Response r = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(body)
                .post("/admin/campaigns");
        r.then().statusCode(400).contentType("application/problem+json");
        JsonPath problem = r.jsonPath();
        assertThat(problem.getString("type")).isEqualTo("https://podium.dev/problems/invalid-request");
        assertThat(problem.getString("title")).isEqualTo("the request is not valid");
        assertThat(problem.getInt("status")).isEqualTo(400);
        assertThat(problem.getList("violations.field", String.class))
                .containsExactly(
                        "name",
                        "owner",
                        "pools[1]",
                        "pools[2]",
                        "schedule",
                        "secrets.EMPTY",
                        "secrets.HF_TOKEN",
                        "secrets.NESTED",
                        "secrets.NOT A NAME",
                        "spec.command",
                        "spec.extra",
                        "spec.repetitions");
        assertThat(problem.getList("violations.message", String.class))
                .containsExactly(
                        "at most 256 characters",
                        "unknown field",
                        "must be a letter or digit, then letters, digits, '.', '_' or '-'; 64 characters at most",
                        "must be a letter or digit, then letters, digits, '.', '_' or '-'; 64 characters at most",
                        "must be hourly, nightly, daily, weekly or an ISO-8601 duration of a second or more, such as PT24H",
                        "must not be empty",
                        "also in spec.environment, where it would be sent in clear",
                        "must be a string",
                        "is not an environment variable name (a letter or '_', then letters, digits or '_'; 128 characters at most)",
                        "must be a list",
                        "unknown field",
                        "must not be negative, was -1");
        assertThat(problem.getString("detail")).isEqualTo("name: at most 256 characters (and 11 more)");
        assertThat(r.asString()).doesNotContain(SECRET);
        assertThat(campaigns()).isEqualTo(before);
    }

    @Test
    void wrongTypesAreNamedWithoutTheirValues() {
        assertThat(fields(post("/admin/agents", "{\"agent_id\": [\"" + SECRET + "\"], \"pool\": {\"name\": \"p\"}}")))
                .containsExactly("agent_id", "pool");
        assertThat(fields(post("/admin/rejected/redrive", "{\"ids\": \"1,2\"}")))
                .containsExactly("ids");
        assertThat(fields(post("/admin/jobs/" + UUID.randomUUID() + "/cancel", "{\"reason\": 5}")))
                .containsExactly("reason");
        assertThat(fields(post("/admin/runs/" + UUID.randomUUID() + "/retract", "{\"reason\": false}")))
                .containsExactly("reason");
        Response campaign = post(
                "/admin/campaigns",
                "{\"name\": \"n\", \"pools\": [\"p\"], \"secrets\": {\"T\": 12}," + SPEC
                        + ", \"repetitions\": 1, \"parameters\": {\"epochs\": 1}}}");
        assertThat(fields(campaign)).containsExactly("secrets.T", "spec.parameters.epochs");
        assertThat(campaign.jsonPath().getList("violations.message")).containsOnly("must be a string");
        assertThat(post("/admin/agents", "{\"agent_id\": [\"" + SECRET + "\"]}").asString())
                .doesNotContain(SECRET);
    }

    @Test
    void unknownFieldsAreRefusedAndNothingIsDone() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("hostile-unknown");
        String agentId = "unknown-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(fields(post(
                        "/admin/agents", "{\"agent_id\": \"" + agentId + "\", \"admin\": true, \"scope\": \"all\"}")))
                .containsExactly("admin", "scope");
        assertThat(db.count("SELECT count(*) FROM agent_key WHERE agent_id = ?", agentId))
                .isZero();
        assertThat(fields(post("/admin/keys/" + agent.keyId() + "/revoke", "{\"reason\": \"r\", \"hard\": true}")))
                .containsExactly("hard");
        assertThat(fields(post("/admin/agents/" + agent.agentId() + "/keys/rotate", "{\"pool\": \"p\", \"force\": 1}")))
                .containsExactly("force");
        assertThat(db.rows("SELECT key_id, status FROM agent_key WHERE agent_id = ?", agent.agentId()))
                .containsExactly(List.of(agent.keyId(), "active"));
        assertThat(fields(post("/admin/jobs/" + UUID.randomUUID() + "/cancel", "{\"reason\": \"r\", \"now\": true}")))
                .containsExactly("now");
    }

    @Test
    void oversizedStringsAndBodiesAreRefused() {
        String long1025 = "x".repeat(1025);
        assertThat(fields(post("/admin/keys/pk_x/revoke", "{\"reason\": \"" + long1025 + "\"}")))
                .containsExactly("reason");
        assertThat(fields(post("/admin/jobs/" + UUID.randomUUID() + "/cancel", "{\"reason\": \"" + long1025 + "\"}")))
                .containsExactly("reason");
        assertThat(fields(post("/admin/agents", "{\"agent_id\": \"" + "a".repeat(129) + "\"}")))
                .containsExactly("agent_id");
        Response huge = post("/admin/campaigns", "{\"name\": \"" + "x".repeat(2 * 1024 * 1024) + "\"}");
        assertThat(fields(huge)).containsExactly("$");
        assertThat(huge.jsonPath().getString("violations[0].message")).startsWith("over a limit: ");
        assertThat(huge.asString()).hasSizeLessThan(1000);
    }

    @Test
    void hostileYamlIsRefusedHarmlesslyAndTheSameFileWithoutItIsTaken() {
        long before = campaigns();
        String head = """
                name: yaml campaign
                spec:
                  benchmark: reference-finetune
                  adapter: reference
                  parameters: {epochs: 1, batch_size: 8}
                  repetitions: 1
                  warmup_steps: 0
                  timeout_seconds: 60
                  nodes: 1
                  devices_per_node: 1
                """;
        StringBuilder bomb = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) {
            bomb.append("a")
                    .append(i)
                    .append(": &a")
                    .append(i)
                    .append(" [")
                    .append(String.join(", ", Collections.nCopies(9, "*a" + (i - 1))))
                    .append("]\n");
        }
        Response aliases = yaml(head + bomb);
        assertThat(fields(aliases)).hasSize(10).allMatch(f -> f.matches("a\\d"));
        assertThat(aliases.asString()).hasSizeLessThan(2000);
        assertThat(fields(yaml(head.replace(
                        "name: yaml campaign", "name: !!java.lang.ProcessBuilder [[touch, /tmp/podium-pwned]]"))))
                .containsExactly("name");
        assertThat(message(yaml(head + "name: again\n")))
                .startsWith("not valid YAML at line 11, column ")
                .endsWith(": Duplicate field …");
        assertThat(message(yaml(head + "---\n" + head))).isEqualTo("holds more than one document");
        assertThat(message(yaml(head + "secrets: {HF_TOKEN: \"" + SECRET + "\n")))
                .startsWith("not valid YAML at line")
                .doesNotContain(SECRET);
        assertThat(message(yaml(head + "nested: " + "[".repeat(40) + "]".repeat(40) + "\n")))
                .startsWith("over a limit: Document nesting depth");
        assertThat(campaigns()).isEqualTo(before);
        // A YAML scalar is text where a string belongs: epochs: 1 is "1".
        yaml(head).then().statusCode(201);
        assertThat(campaigns()).isEqualTo(before + 1);
    }

    private long campaigns() {
        return new Db(dataSource).count("SELECT count(*) FROM campaign");
    }

    private static Response post(String path, String json) {
        return given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(json)
                .post(path);
    }

    private static Response yaml(String text) {
        return given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType("application/yaml")
                .body(text.getBytes(StandardCharsets.UTF_8))
                .queryParam("pools", "hostile-yaml")
                .post("/admin/campaigns");
    }

    /** The fields a 400 problem names, after checking it is one. */
    private static List<String> fields(Response r) {
        r.then().statusCode(400).contentType("application/problem+json");
        assertThat(r.asString()).doesNotContain(SECRET);
        return r.jsonPath().getList("violations.field", String.class);
    }

    private static String message(Response r) {
        assertThat(fields(r)).containsExactly("$");
        return r.jsonPath().getString("violations[0].message");
    }
}
