package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class RunPageIT {

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    /** A retraction's reason is the operator's text, shown escaped on the page and as a field of the JSON. */
    @Test
    void aRetractedRunSaysSoWithItsReason() throws Exception {
        UUID run = UUID.randomUUID();
        String reason = "throttled " + SeedData.XSS_SCRIPT;
        Instant at = Instant.parse("2026-11-21T09:30:00Z");
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO proj_run (run_id, stream_id, status, retracted, device_id, started_at, last_position)
                    VALUES (?, ?, 'completed', TRUE, ?, '2001-01-01T00:00:00Z', 1)""")) {
                ps.setObject(1, run);
                ps.setString(2, "run/" + run);
                ps.setString(3, SeedData.H200);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO proj_retraction (run_id, reason, actor, retracted_at, position) VALUES (?, ?, 'ops', ?, 1)""")) {
                ps.setObject(1, run);
                ps.setString(2, reason);
                ps.setTimestamp(3, Timestamp.from(at));
                ps.executeUpdate();
            }
        }
        String html = given().when()
                .get("/runs/" + run)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Document doc = Jsoup.parse(html);
        assertThat(doc.selectFirst("#retraction").text())
                .contains("by ops: " + reason)
                .contains("left out of leaderboards and comparisons");
        assertThat(doc.select("#retraction script")).isEmpty();
        assertThat(html).doesNotContain(SeedData.XSS_SCRIPT);

        JsonPath json = given().when()
                .get("/api/v1/runs/" + run)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getString("retraction.reason")).isEqualTo(reason);
        assertThat(json.getString("retraction.actor")).isEqualTo("ops");
        assertThat(json.getBoolean("run.retracted")).isTrue();
        assertThat(given().when()
                        .get("/api/v1/runs/" + SeedData.RUN_C)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("retraction"))
                .isNull();
    }

    @Test
    void theRunPageShowsParametersFingerprintMetricsChartsChecksAndTimeline() {
        Document doc = Jsoup.parse(given().when()
                .get("/runs/" + SeedData.RUN_A)
                .then()
                .statusCode(200)
                .extract()
                .asString());

        assertThat(doc.text())
                .contains("dataloader_num_workers")
                .contains("Intel(R) Xeon(R) Platinum 8480+")
                .contains("NVIDIA H200")
                .contains("CUDA 12.4")
                .contains("2.4.0")
                .contains("transformers");
        assertThat(doc.select("#metrics tbody tr").text())
                .contains("train_samples_per_second")
                .contains("30.13");
        assertThat(doc.select("figure.chart")).hasSize(2);
        assertThat(doc.select("figure.chart").get(0).select("polyline")).hasSize(3);
        assertThat(doc.select("figure.chart").get(1).select("polyline")).hasSize(2);
        assertThat(doc.select("ul.checks li.pass").eachText()).anyMatch(t -> t.contains("min_repetitions: 3 of 3"));
        assertThat(doc.select("#events tbody tr td:nth-child(2)").eachText())
                .containsExactly("RunStarted v1", "MetricSampled v1", "RunCompleted v1");
    }

    @Test
    void theRunJsonCarriesTheSameData() {
        JsonPath json = given().when()
                .get("/api/v1/runs/" + SeedData.RUN_C)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(json.getString("run.status")).isEqualTo("completed");
        assertThat(json.getString("software.find { it.name == 'framework_version' }.value"))
                .isEqualTo("2.5.1");
        assertThat(json.getList("events.rows.type")).hasSize(3);
        assertThat(json.getLong("events.count")).isEqualTo(3);
    }

    @Test
    void theKeyPageIsOnePrimaryKeyLookupInTheSharedLayout() {
        String keyId = SeedData.measuredKey("0").id();
        Document doc = Jsoup.parse(given().when()
                .get("/keys/" + keyId)
                .then()
                .statusCode(200)
                .extract()
                .asString());

        assertThat(doc.selectFirst(".canonical").text())
                .isEqualTo(SeedData.measuredKey("0").canonical());
        assertThat(doc.select("link[rel=stylesheet]").attr("href")).isEqualTo("/css/podium.css");
        given().when().get("/api/v1/keys/" + keyId).then().statusCode(200);
        given().when().get("/keys/0000000000000000").then().statusCode(404);
    }

    @Test
    void anUnknownRunIsNotFound() {
        given().when().get("/runs/0193a0c0-0000-7000-8000-000000000999").then().statusCode(404);
        given().when().get("/runs/%3Cscript%3E").then().statusCode(404);
        given().when()
                .get("/api/v1/runs/0193a0c0-0000-7000-8000-000000000999")
                .then()
                .statusCode(404);
    }

    @Test
    void theDeviceAndBenchmarkPagesListResultsRunsAndClaims() {
        Document device = Jsoup.parse(given().when()
                .get("/devices/" + SeedData.H200)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(device.selectFirst("h1").text()).isEqualTo("NVIDIA H200 SXM 141GB");
        assertThat(device.text()).contains(SeedData.RUN_A.toString());

        Document h100 = Jsoup.parse(given().when()
                .get("/devices/nvidia-h100")
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(h100.text()).contains("variant unspecified").contains("602.1");

        Document bench = Jsoup.parse(given().when()
                .get("/benchmarks/bridgetower-finetune")
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(bench.select("#claims tr.claim")).hasSize(9);
        assertThat(bench.select("ul.keys li")).hasSizeGreaterThanOrEqualTo(6);

        given().when().get("/devices/no-such-device").then().statusCode(404);
        given().when().get("/api/v1/benchmarks/bridgetower-finetune").then().statusCode(200);
        given().when().get("/api/v1/home").then().statusCode(200);
    }
}
