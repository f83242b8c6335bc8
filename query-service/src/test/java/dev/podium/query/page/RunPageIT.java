package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.model.ThrottleSpan;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.validate.ThrottleCheck;
import dev.podium.query.support.HeadlessChromium;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.net.URL;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class RunPageIT {

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @TestHTTPResource("/")
    URL base;

    /**
     * A run's percentiles of its requests show their order-statistic intervals, pooled over its repetitions; a p99 of 50
     * requests is flagged and open above; a percentile the tool reported per repetition says it has no interval. The
     * same in the JSON, and in a real browser.
     */
    @Test
    void requestPercentilesShowTheirIntervalsAndTooFewRequestsAreFlagged() throws Exception {
        UUID run = UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO proj_run (run_id, stream_id, status, retracted, device_id, started_at, last_position)
                    VALUES (?, ?, 'completed', FALSE, ?, '2001-01-01T00:00:00Z', 1)""")) {
                ps.setObject(1, run);
                ps.setString(2, "run/" + run);
                ps.setString(3, SeedData.H200);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, n, mean, requests,
                                             p50, p50_low, p50_high, p90, p90_low, p90_high, p99, p99_low, p99_high)
                    VALUES (?, 'ttft_mean_ms', 'ms', 'LOWER_IS_BETTER', 'SYSTEM', TRUE, 3, 50.0, 1000,
                            48.0, 46.0, 49.5, 80.0, 77.0, 83.0, 140.0, 120.0, 171.0),
                           (?, 'e2e_latency_mean_ms', 'ms', 'LOWER_IS_BETTER', 'SYSTEM', TRUE, 3, 900.0, 50,
                            880.0, 850.0, 905.0, 990.0, 950.0, 1020.0, 1104.0, 1080.0, NULL),
                           (?, 'ttft_p99_ms', 'ms', 'LOWER_IS_BETTER', 'SYSTEM', TRUE, 3, 139.0, NULL,
                            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)""")) {
                ps.setObject(1, run);
                ps.setObject(2, run);
                ps.setObject(3, run);
                ps.executeUpdate();
            }
        }
        Document doc = Jsoup.parse(given().when()
                .get("/runs/" + run)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(doc.select("#request-percentiles tbody tr").stream()
                        .map(tr -> tr.text())
                        .toList())
                .containsExactly(
                        "e2e_latency_mean_ms p50 880.0 850.0 – 905.0 50",
                        "e2e_latency_mean_ms p90 990.0 950.0 – 1020.0 50",
                        "e2e_latency_mean_ms p99 1104.0 ≥ 1080.0 50 too few requests for a p99 (50): not a precise figure",
                        "ttft_mean_ms p50 48.00 46.00 – 49.50 1000",
                        "ttft_mean_ms p90 80.00 77.00 – 83.00 1000",
                        "ttft_mean_ms p99 140.0 120.0 – 171.0 1000");
        assertThat(doc.select("#request-percentiles tr.too-few")).hasSize(1);
        assertThat(doc.select("#metrics tbody tr td.percentile-source").stream()
                        .map(td -> td.text())
                        .toList())
                .containsExactly(
                        "percentiles of its requests below",
                        "percentiles of its requests below",
                        "tool-reported, no interval: one per repetition, averaged");
        assertThat(doc.text()).contains("Pooled over the run's repetitions");

        JsonPath json = given().when()
                .get("/api/v1/runs/" + run)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getList("results.metric"))
                .containsExactly("e2e_latency_mean_ms", "ttft_mean_ms", "ttft_p99_ms");
        assertThat(json.getString("results[0].percentiles[2].interval")).isEqualTo("OPEN_ABOVE");
        assertThat(json.getBoolean("results[0].percentiles[2].tooFew")).isTrue();
        assertThat(json.getDouble("results[1].percentiles[2].high")).isEqualTo(171.0);
        assertThat(json.getBoolean("results[2].toolReportedPercentile")).isTrue();
        assertThat(json.getList("results[2].percentiles")).isEmpty();

        try (HeadlessChromium chromium = HeadlessChromium.start()) {
            chromium.open(base, "/runs/" + run);
            WebDriver browser = chromium.browser();
            await().atMost(HeadlessChromium.WAIT)
                    .until(() -> !browser.findElements(By.cssSelector("#request-percentiles tr.too-few"))
                            .isEmpty());
            assertThat(browser.findElement(By.cssSelector("#request-percentiles tr.too-few"))
                            .isDisplayed())
                    .isTrue();
        }
    }

    /**
     * A throttled run's page says which slowdown its measured window showed, on which device, when and for how long,
     * and lists each device's enforced power limit beside its default, the lowered one flagged; the device identity is
     * the tool's text, shown escaped. The JSON carries the same devices. The stored check is what ThrottleCheck, the
     * definition ingest judges with, writes for these spans and devices.
     */
    @Test
    void aThrottledRunShowsItsSlowdownAndEachDevicesPowerLimitBesideItsDefault() throws Exception {
        UUID run = UUID.randomUUID();
        String hostile = "GPU-1 " + SeedData.XSS_SCRIPT;
        List<AcceleratorDevice> devices = List.of(
                new AcceleratorDevice(0, "GPU-0", 450.0, 700.0, 1980.0, 2619.0),
                new AcceleratorDevice(1, hostile, 700.0, 700.0, 1980.0, null));
        ValidityCheck check = ThrottleCheck.judge(
                        devices,
                        40,
                        List.of(new ThrottleSpan(1, ThrottleReason.HW_THERMAL_SLOWDOWN, 2, 12.0, 13.0)),
                        30.0)
                .orElseThrow();
        ObjectMapper mapper = EventCodec.newMapper();
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO proj_run (run_id, stream_id, status, retracted, device_id, started_at, last_position,
                                          valid, validity)
                    VALUES (?, ?, 'completed', FALSE, ?, '2001-01-01T00:00:00Z', 1, FALSE, ?::jsonb)""")) {
                ps.setObject(1, run);
                ps.setString(2, "run/" + run);
                ps.setString(3, SeedData.H200);
                ps.setString(4, mapper.writeValueAsString(List.of(check)));
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO proj_run_throttle_head (run_id, devices, samples, last_position)
                    VALUES (?, ?::jsonb, 40, 2)""")) {
                ps.setObject(1, run);
                ps.setString(2, mapper.writeValueAsString(devices));
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
        assertThat(doc.select("ul.checks li.fail").eachText())
                .containsExactly("✘ not_throttled: hardware thermal slowdown on device 1 (" + hostile
                        + ") in 2 samples from 12.0 s to 13.0 s; power limit 450 W below its default 700 W on device 0"
                        + " (GPU-0)");
        assertThat(doc.select("#devices tbody tr").stream().map(tr -> tr.text()).toList())
                .containsExactly(
                        "0 GPU-0 450.0 700.0 1980.0 2619.0 power limit below its default: figures are not the model's",
                        "1 " + hostile + " 700.0 700.0 1980.0 —");
        assertThat(doc.select("#devices tbody tr.capped")).hasSize(1);
        assertThat(html).doesNotContain(SeedData.XSS_SCRIPT);

        JsonPath json = given().when()
                .get("/api/v1/runs/" + run)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getList("devices.identity")).containsExactly("GPU-0", hostile);
        assertThat(json.getList("devices.powerLimitWatts", Double.class)).containsExactly(450.0, 700.0);
        assertThat(json.getList("devices.defaultPowerLimitWatts", Double.class)).containsExactly(700.0, 700.0);
        assertThat(json.getList("devices.belowDefault", Boolean.class)).containsExactly(true, false);
    }

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
