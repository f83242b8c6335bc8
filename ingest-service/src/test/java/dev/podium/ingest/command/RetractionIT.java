package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.request.RetractRequest;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code POST /admin/runs/{id}/retract}: an event on an admin stream, the run off leaderboards, its reason kept. */
@QuarkusTest
class RetractionIT {

    private static final String DEVICE = "intel-gaudi2";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aRetractedRunLeavesTheLeaderboardAndKeepsItsFirstReason() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("retract");
        ComparisonKey key = SampleEvents.referenceKey(18401);
        UUID kept = UUID.randomUUID();
        UUID retracted = UUID.randomUUID();
        List<Envelope> events = new ArrayList<>();
        events.addAll(SampleEvents.completedRun(
                kept, agent.agentId(), DEVICE, key, Instant.now(), List.of(500.0, 501.0, 502.0)));
        events.addAll(SampleEvents.completedRun(
                retracted, agent.agentId(), DEVICE, key, Instant.now(), List.of(900.0, 901.0, 902.0)));
        Kafka.send(events.stream().map(agent::signed).toList());
        await().atMost(Duration.ofSeconds(60)).until(() -> runs(db, key) == 2);

        given().auth()
                .oauth2("test-ci-token-of-32-chars-or-more")
                .contentType(ContentType.JSON)
                .body(Map.of("reason", "thermal throttling in the power series"))
                .post("/admin/runs/" + retracted + "/retract")
                .then()
                .statusCode(200)
                .body("run_id", equalTo(retracted.toString()))
                .body("reason", equalTo("thermal throttling in the power series"))
                .body("actor", equalTo("ci"))
                .body("already_retracted", equalTo(false));

        assertThat(runs(db, key)).isEqualTo(1);
        assertThat(db.one("SELECT mean FROM proj_leaderboard_row WHERE key_id = ? AND device_id = ?", key.id(), DEVICE))
                .isEqualTo(501.0);
        assertThat(db.one("SELECT retracted FROM proj_run WHERE run_id = ?", retracted))
                .isEqualTo(true);
        assertThat(db.rows("""
                SELECT writer, stream_id LIKE 'admin/%', payload->>'actor', payload->>'reason' FROM event_store
                WHERE type = 'ResultRetracted' AND payload->>'run_id' = ?""", retracted.toString()))
                .containsExactly(List.of("command:ci", true, "ci", "thermal throttling in the power series"));

        // Retracting twice is harmless: no second event, the first reason stays.
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(Map.of("reason", "changed my mind"))
                .post("/admin/runs/" + retracted.toString().toUpperCase() + "/retract")
                .then()
                .statusCode(200)
                .body("already_retracted", equalTo(true))
                .body("reason", equalTo("thermal throttling in the power series"))
                .body("actor", equalTo("ci"));
        assertThat(db.count(
                        "SELECT count(*) FROM event_store WHERE type = 'ResultRetracted' AND payload->>'run_id' = ?",
                        retracted.toString()))
                .isEqualTo(1);

        // A rebuild from the event store gives the same retraction and the same leaderboard.
        List<String> retractions = db.dump("proj_retraction");
        List<String> rows = db.dump("proj_leaderboard_row");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_retraction")).containsExactlyElementsOf(retractions);
        assertThat(db.dump("proj_leaderboard_row")).containsExactlyElementsOf(rows);
    }

    @Test
    void retractingAnUnknownRunAnswers404AndAppendsNothing() {
        Db db = new Db(dataSource);
        long before = db.count("SELECT count(*) FROM event_store WHERE type = 'ResultRetracted'");
        UUID unknown = UUID.randomUUID();
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(Map.of("reason", "why not"))
                .post("/admin/runs/" + unknown + "/retract")
                .then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404))
                .body("detail", equalTo("no run " + unknown + ": nothing to retract"));
        for (String id :
                new String[] {"not-a-uuid", "1-2-3-4-5", unknown.toString().replace("-", "")}) {
            given().auth()
                    .oauth2(TestAgent.ADMIN_TOKEN)
                    .contentType(ContentType.JSON)
                    .body(Map.of("reason", "why not"))
                    .post("/admin/runs/" + id + "/retract")
                    .then()
                    .statusCode(404)
                    .body("detail", containsString("nothing to retract"));
        }
        assertThat(db.count("SELECT count(*) FROM event_store WHERE type = 'ResultRetracted'"))
                .isEqualTo(before);
    }

    /** Each bad body and the field its answer names. */
    static Stream<Arguments> badReasons() {
        return Stream.of(
                Arguments.of("", "$"),
                Arguments.of("{}", "reason"),
                Arguments.of("{\"reason\": \"\"}", "reason"),
                Arguments.of("{\"reason\": \"   \"}", "reason"),
                Arguments.of("{\"reason\": 7}", "reason"),
                Arguments.of("[1]", "$"),
                Arguments.of("not json", "$"),
                Arguments.of("{\"reason\": \"nul \\u0000 inside\"}", "reason"),
                Arguments.of("{\"reason\": \"why\", \"because\": \"x\"}", "because"));
    }

    @ParameterizedTest
    @MethodSource("badReasons")
    void aRetractionNeedsAReasonThatCanBeStored(String body, String field) {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("retract-bad");
        UUID run = UUID.randomUUID();
        Envelope started =
                SampleEvents.runStarted(run, agent.agentId(), DEVICE, SampleEvents.referenceKey(18402), Instant.now());
        Kafka.send(List.of(agent.signed(started)));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> db.count("SELECT count(*) FROM proj_run WHERE run_id = ?", run) == 1);
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(body)
                .post("/admin/runs/" + run + "/retract")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("violations.field", contains(field))
                .body("violations[0].message", not(emptyOrNullString()));
        assertThat(db.one("SELECT retracted FROM proj_run WHERE run_id = ?", run))
                .isEqualTo(false);
    }

    @Test
    void aReasonOverTheLimitIsRefused() {
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(Map.of("reason", "x".repeat(RetractRequest.MAX_REASON + 1)))
                .post("/admin/runs/" + UUID.randomUUID() + "/retract")
                .then()
                .statusCode(400)
                .body("violations.field", contains("reason"))
                .body("violations[0].message", equalTo("at most 1024 characters"));
    }

    @Test
    void retractingNeedsANamedToken() {
        given().contentType(ContentType.JSON)
                .body(Map.of("reason", "x"))
                .post("/admin/runs/" + UUID.randomUUID() + "/retract")
                .then()
                .statusCode(401);
    }

    private static long runs(Db db, ComparisonKey key) {
        List<List<Object>> rows = db.rows(
                "SELECT runs FROM proj_leaderboard_row WHERE key_id = ? AND device_id = ?" + " AND source = 'measured'",
                key.id(),
                DEVICE);
        return rows.isEmpty() ? 0 : ((Number) rows.get(0).get(0)).longValue();
    }
}
