package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.podium.events.model.ComparisonKey;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code POST /admin/catalog/hide} and {@code /show}: one CatalogEntryHidden per change on an admin stream,
 * {@code proj_hidden_catalog} holding the latest of each entry, the same after a rebuild; bad requests refused.
 */
@QuarkusTest
class HiddenCatalogIT {

    private static final String EVENTS_OF_TYPE = "SELECT count(*) FROM event_store WHERE type = 'CatalogEntryHidden'";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void anEntryIsHiddenShownAgainAndARebuildGivesTheSameSet() {
        Db db = new Db(dataSource);
        Catalogued run = completedRun("hide");
        long before = db.count(EVENTS_OF_TYPE);

        change("hide", "benchmark", run.benchmark(), "a flood of invented names")
                .statusCode(200)
                .body("kind", equalTo("benchmark"))
                .body("name", equalTo(run.benchmark()))
                .body("hidden", equalTo(true))
                .body("reason", equalTo("a flood of invented names"))
                .body("actor", equalTo("ci"))
                .body("changed", equalTo(true));
        change("hide", "key", run.keyId(), "misconfigured").statusCode(200).body("changed", equalTo(true));
        change("hide", "device", run.deviceId(), "no such accelerator").statusCode(200);
        assertThat(db.rows("""
                SELECT writer, stream_id LIKE 'admin/%', payload->>'kind', payload->>'hidden' FROM event_store
                WHERE type = 'CatalogEntryHidden' AND payload->>'name' = ?""", run.benchmark())).containsExactly(List.of("command:ci", true, "BENCHMARK", "true"));

        // Hiding what is hidden appends nothing and keeps the first reason.
        change("hide", "benchmark", run.benchmark(), "again")
                .statusCode(200)
                .body("changed", equalTo(false))
                .body("reason", equalTo("a flood of invented names"));
        assertThat(db.count(EVENTS_OF_TYPE)).isEqualTo(before + 3);

        change("show", "benchmark", run.benchmark(), "the names were real")
                .statusCode(200)
                .body("hidden", equalTo(false))
                .body("reason", equalTo("the names were real"))
                .body("changed", equalTo(true));
        change("show", "benchmark", run.benchmark(), "still real")
                .statusCode(200)
                .body("changed", equalTo(false));
        assertThat(db.rows("SELECT kind, hidden FROM proj_hidden_catalog WHERE name = ANY(?) ORDER BY kind", (Object)
                        new String[] {run.benchmark(), run.keyId(), run.deviceId()}))
                .containsExactly(List.of("benchmark", false), List.of("device", true), List.of("key", true));
        List<String> listed = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .get("/admin/catalog/hidden")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("name", String.class);
        assertThat(listed).contains(run.keyId(), run.deviceId()).doesNotContain(run.benchmark());

        List<String> hidden = db.dump("proj_hidden_catalog");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_hidden_catalog")).containsExactlyElementsOf(hidden);

        change("show", "key", run.keyId(), "done").statusCode(200).body("changed", equalTo(true));
        change("show", "device", run.deviceId(), "done").statusCode(200).body("changed", equalTo(true));
    }

    @Test
    void anEntryThatIsNotThereAnswers404AndAppendsNothing() {
        Db db = new Db(dataSource);
        long before = db.count(EVENTS_OF_TYPE);
        for (String kind : List.of("benchmark", "key", "device")) {
            change("hide", kind, "not-there-" + UUID.randomUUID(), "why not")
                    .statusCode(404)
                    .contentType("application/problem+json")
                    .body("detail", org.hamcrest.Matchers.endsWith(": nothing to hide"));
        }
        change("show", "device", "not-there", "why not")
                .statusCode(404)
                .body("detail", equalTo("no device not-there: nothing to show"));
        assertThat(db.count(EVENTS_OF_TYPE)).isEqualTo(before);
    }

    /** Each bad body and the field its answer names. */
    static Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("", "$"),
                Arguments.of("not json", "$"),
                Arguments.of("[1]", "$"),
                Arguments.of(body("gpu", "x", "r"), "kind"),
                Arguments.of(body("BENCHMARK", "x", "r"), "kind"),
                Arguments.of("{\"name\": \"x\", \"reason\": \"r\"}", "kind"),
                Arguments.of("{\"kind\": \"device\", \"reason\": \"r\"}", "name"),
                Arguments.of(body("device", "", "r"), "name"),
                Arguments.of(body("device", "   ", "r"), "name"),
                Arguments.of(body("device", "x".repeat(1025), "r"), "name"),
                Arguments.of(body("device", "nul \\u0000 inside", "r"), "name"),
                Arguments.of(body("device", "x", ""), "reason"),
                Arguments.of(body("device", "x", "  "), "reason"),
                Arguments.of("{\"kind\": \"device\", \"name\": \"x\"}", "reason"),
                Arguments.of(body("device", "x", "nul \\u0000 inside"), "reason"),
                Arguments.of(body("device", "x", "r".repeat(1025)), "reason"),
                Arguments.of("{\"kind\": \"device\", \"name\": 7, \"reason\": \"r\"}", "name"),
                Arguments.of("{\"kind\": \"device\", \"name\": \"x\", \"reason\": \"r\", \"also\": 1}", "also"));
    }

    @ParameterizedTest
    @MethodSource("badBodies")
    void aBadRequestIsRefusedNamingTheField(String body, String field) {
        Db db = new Db(dataSource);
        long before = db.count(EVENTS_OF_TYPE);
        for (String action : List.of("hide", "show")) {
            given().auth()
                    .oauth2(TestAgent.ADMIN_TOKEN)
                    .contentType(ContentType.JSON)
                    .body(body)
                    .post("/admin/catalog/" + action)
                    .then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("violations.field", contains(field))
                    .body("violations[0].message", not(emptyOrNullString()));
        }
        assertThat(db.count(EVENTS_OF_TYPE)).isEqualTo(before);
    }

    @Test
    void hidingNeedsATokenThatMayOperate() {
        Catalogued run = completedRun("hide-scope");
        String body = body("benchmark", run.benchmark(), "r");
        given().contentType(ContentType.JSON)
                .body(body)
                .post("/admin/catalog/hide")
                .then()
                .statusCode(401);
        given().auth()
                .oauth2("test-read-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(body)
                .post("/admin/catalog/hide")
                .then()
                .statusCode(403)
                .contentType("application/problem+json")
                .body("required_scope", equalTo("operate"));
        given().auth()
                .oauth2("test-read-token-of-32-chars-or-more")
                .get("/admin/catalog/hidden")
                .then()
                .statusCode(200);
        given().auth()
                .oauth2("test-operate-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(body)
                .post("/admin/catalog/hide")
                .then()
                .statusCode(200)
                .body("actor", equalTo("operator"));
        assertThat(new Db(dataSource)
                        .one(
                                "SELECT hidden FROM proj_hidden_catalog WHERE kind = 'benchmark' AND name = ?",
                                run.benchmark()))
                .isEqualTo(true);
    }

    @Test
    void theAdminCliHidesShowsAndSaysWhatIsWrong() throws Exception {
        Catalogued run = completedRun("hide-cli");

        Result hidden = cli("hide", "device", run.deviceId(), "--reason", "invented \"model\"");
        Result listed = cli("hidden");
        Result shown = cli("show", "device", run.deviceId(), "--reason", "real after all");
        Result unknownKind = cli("hide", "gpu", run.deviceId(), "--reason", "r");
        Result noReason = cli("hide", "device", run.deviceId());

        assertThat(hidden.exit()).isZero();
        assertThat(hidden.output()).contains("\"hidden\":true", "\"reason\":\"invented \\\"model\\\"\"");
        assertThat(listed.output()).contains(run.deviceId());
        assertThat(shown.exit()).isZero();
        assertThat(shown.output()).contains("\"hidden\":false", "\"changed\":true");
        assertThat(unknownKind.exit()).isEqualTo(1);
        assertThat(unknownKind.errors())
                .contains("podium-admin: HTTP 400: the request is not valid\n")
                .contains("  kind: must be one of benchmark, key, device, was 'gpu'");
        assertThat(noReason.exit()).isEqualTo(2);
        assertThat(noReason.errors()).contains("usage: podium-admin");
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    /** What a completed run put in the catalogue. */
    private record Catalogued(String benchmark, String keyId, String deviceId) {}

    /** A completed run of a benchmark and device of its own (an id the alias table does not know), once projected. */
    private Catalogued completedRun(String prefix) {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register(prefix);
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        ComparisonKey key = new ComparisonKey(
                prefix + "-bench-" + suffix, "1", "training", "m", "fp32", 8, 1, 128, new TreeMap<>());
        String device = "acme-warp-" + suffix;
        UUID runId = UUID.randomUUID();
        Kafka.send(
                SampleEvents.completedRun(runId, agent.agentId(), device, key, Instant.now(), List.of(1.0, 2.0, 3.0))
                        .stream()
                        .map(agent::signed)
                        .toList());
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM proj_run WHERE run_id = ? AND status = 'completed'", runId)
                        == 1);
        return new Catalogued(key.benchmark(), key.id(), device);
    }

    private static ValidatableResponse change(String action, String kind, String name, String reason) {
        return given().auth()
                .oauth2("test-ci-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(Map.of("kind", kind, "name", name, "reason", reason))
                .post("/admin/catalog/" + action)
                .then();
    }

    private static String body(String kind, String name, String reason) {
        return "{\"kind\": \"" + kind + "\", \"name\": \"" + name + "\", \"reason\": \"" + reason + "\"}";
    }

    private record Result(int exit, String output, String errors) {}

    private static Result cli(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", "podium-admin"));
        command.addAll(List.of(args));
        Path errors = Files.createTempFile("podium-admin", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(errors.toFile());
        pb.environment().put("PODIUM_ADMIN_URL", "http://localhost:" + RestAssured.port);
        pb.environment().put("PODIUM_ADMIN_TOKEN", TestAgent.ADMIN_TOKEN);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        String err = Files.readString(errors);
        Files.delete(errors);
        return new Result(exit, out.trim(), err);
    }
}
