package dev.podium.ingest.command;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.ingest.testing.Db;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Admin tokens carry a scope (application.properties, test profile): {@code viewer} reads, {@code operator} runs
 * campaigns and jobs, {@code ops} (no scope given) is admin. A command outside the scope answers 403 with a problem body
 * and does nothing.
 */
@QuarkusTest
class AdminScopeIT {

    private static final String READ = "test-read-token-of-32-chars-or-more";
    private static final String OPERATE = "test-operate-token-of-32-chars-or-more";
    private static final String ADMIN = "test-ops-token-of-32-chars-or-more";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aReadTokenReadsButCannotSubmitACampaign() {
        String name = "scoped-" + UUID.randomUUID();
        Response refused = given().auth()
                .oauth2(READ)
                .contentType(ContentType.JSON)
                .body(campaign(name))
                .post("/admin/campaigns");
        assertForbidden(refused, "read", "operate");
        assertThat(new Db(dataSource).count("SELECT count(*) FROM campaign WHERE name = ?", name))
                .isZero();
        given().auth()
                .oauth2(READ)
                .get("/admin/jobs/" + UUID.randomUUID())
                .then()
                .statusCode(404);
        given().auth()
                .oauth2(READ)
                .get("/admin/campaigns/" + UUID.randomUUID())
                .then()
                .statusCode(404);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/admin/jobs/6b1d0000-0000-4000-8000-000000000001/cancel",
                "/admin/agents",
                "/admin/rebuild",
                "/admin/published",
                "/admin/keys/pk_x/revoke",
                "/admin/agents/x/keys/rotate"
            })
    void aReadTokenCannotCommandAnything(String path) {
        assertForbidden(
                given().auth()
                        .oauth2(READ)
                        .contentType(ContentType.JSON)
                        .body("{}")
                        .post(path),
                "read",
                null);
    }

    @Test
    void anOperateTokenRunsCampaignsAndJobsButCannotIssueKeysImportOrRebuild() {
        given().auth()
                .oauth2(OPERATE)
                .contentType(ContentType.JSON)
                .body(campaign("operated-" + UUID.randomUUID()))
                .post("/admin/campaigns")
                .then()
                .statusCode(201);
        given().auth()
                .oauth2(OPERATE)
                .post("/admin/jobs/" + UUID.randomUUID() + "/cancel")
                .then()
                .statusCode(404);
        String agentId = "scoped-" + UUID.randomUUID().toString().substring(0, 8);
        assertForbidden(
                given().auth()
                        .oauth2(OPERATE)
                        .contentType(ContentType.JSON)
                        .body(Map.of("agent_id", agentId))
                        .post("/admin/agents"),
                "operate",
                "admin");
        assertThat(new Db(dataSource).count("SELECT count(*) FROM agent_key WHERE agent_id = ?", agentId))
                .isZero();
        assertForbidden(given().auth().oauth2(OPERATE).post("/admin/rebuild"), "operate", "admin");
        assertForbidden(
                given().auth()
                        .oauth2(OPERATE)
                        .contentType(ContentType.JSON)
                        .body("{}")
                        .post("/admin/published"),
                "operate",
                "admin");
        assertForbidden(given().auth().oauth2(OPERATE).post("/admin/keys/pk_x/revoke"), "operate", "admin");
    }

    @Test
    void aCommandNotListedNeedsTheAdminScope() {
        assertForbidden(given().auth().oauth2(OPERATE).post("/admin/something-new"), "operate", "admin");
        given().auth().oauth2(ADMIN).post("/admin/something-new").then().statusCode(404);
    }

    @Test
    void aTokenWithoutAScopeIsAdmin() {
        String agentId = "scoped-" + UUID.randomUUID().toString().substring(0, 8);
        given().auth()
                .oauth2(ADMIN)
                .contentType(ContentType.JSON)
                .body(Map.of("agent_id", agentId))
                .post("/admin/agents")
                .then()
                .statusCode(201);
    }

    private static void assertForbidden(Response r, String has, String needs) {
        r.then().statusCode(403).contentType("application/problem+json");
        assertThat(r.jsonPath().getInt("status")).isEqualTo(403);
        assertThat(r.jsonPath().getString("title")).isNotBlank();
        assertThat(r.jsonPath().getString("token_scope")).isEqualTo(has);
        if (needs != null) {
            assertThat(r.jsonPath().getString("required_scope")).isEqualTo(needs);
        }
    }

    private static Map<String, Object> campaign(String name) {
        return Map.of(
                "name",
                name,
                "pools",
                List.of("scoped-pool"),
                "spec",
                Map.of(
                        "benchmark",
                        "reference-finetune",
                        "adapter",
                        "reference",
                        "parameters",
                        Map.of("epochs", "1"),
                        "matrix",
                        Map.of(),
                        "repetitions",
                        1,
                        "warmup_steps",
                        0,
                        "timeout_seconds",
                        60,
                        "environment",
                        Map.of(),
                        "nodes",
                        1,
                        "devices_per_node",
                        1));
    }
}
