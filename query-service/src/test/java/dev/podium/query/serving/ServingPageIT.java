package dev.podium.query.serving;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import dev.podium.events.model.ComparisonKey;
import dev.podium.query.support.HeadlessChromium;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import java.net.URL;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.TreeMap;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Serving results of two devices over three concurrencies each (as a vLLM or genai-perf sweep lands them): throughput per
 * accelerator against per-user speed, with the Pareto front and intervals, in HTML (SVG) and JSON.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class ServingPageIT {

    static final String BENCHMARK = "vllm-serving-llama";
    static final String H100 = "nvidia-h100-sxm-80gb";
    static final String HOSTILE_DEVICE = "zz-hostile";

    /** Numbers as doubles: RestAssured reads them as floats by default, a few units in the seventh digit off. */
    private static final JsonPathConfig DOUBLES = new JsonPathConfig(JsonPathConfig.NumberReturnType.DOUBLE);

    @TestHTTPResource("/")
    URL base;

    @BeforeAll
    static void seed() throws SQLException {
        String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            update(
                    c,
                    "INSERT INTO proj_device (device_id, vendor, label, last_position) VALUES (?, 'NVIDIA', 'NVIDIA H100 SXM', 1), "
                            + "(?, 'x', ?, 1) ON CONFLICT DO NOTHING",
                    H100,
                    HOSTILE_DEVICE,
                    SeedData.XSS_SCRIPT);
            // H100 on 2 accelerators: system throughput, so per accelerator is half.
            point(c, H100, 2, "1", 95.0, 190.0, 3, 180.0, 200.0, 40.0);
            point(c, H100, 2, "8", 60.0, 960.0, 3, 900.0, 1020.0, 150.0);
            point(c, H100, 2, "64", 20.0, 2400.0, 1, null, null, 900.0);
            // The hostile device on 1: one point beats H100's at concurrency 8, one is beaten.
            point(c, HOSTILE_DEVICE, 1, "1", 70.0, 120.0, 3, 110.0, 130.0, 50.0);
            point(c, HOSTILE_DEVICE, 1, "8", 65.0, 600.0, 3, 550.0, 650.0, 300.0);
            SeedData.refreshPageCells(c);
        }
    }

    private static void point(
            Connection c,
            String device,
            int accelerators,
            String concurrency,
            double perUser,
            double throughput,
            int runs,
            Double low,
            Double high,
            double ttftP99)
            throws SQLException {
        TreeMap<String, String> extra = new TreeMap<>();
        extra.put("concurrency", concurrency);
        extra.put("input_len", "1024");
        ComparisonKey key = new ComparisonKey(
                BENCHMARK, "1", "serving", "meta-llama/Llama-3.1-8B", "bf16", null, accelerators, null, extra);
        update(
                c,
                "INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions) VALUES (?, ?, ?, ?::jsonb) "
                        + "ON CONFLICT DO NOTHING",
                key.id(),
                BENCHMARK,
                key.canonical(),
                dev.podium.events.codec.EventCodec.newMapper()
                        .valueToTree(key.dimensions())
                        .toString());
        row(
                c,
                key.id(),
                device,
                "output_token_throughput_per_user",
                "tok/s/user",
                "HIGHER_IS_BETTER",
                runs,
                perUser,
                null,
                null);
        row(c, key.id(), device, "output_token_throughput", "tok/s", "HIGHER_IS_BETTER", runs, throughput, low, high);
        // p99 TTFT with an interval of ±5% where repetitions exist.
        boolean interval = low != null;
        row(
                c,
                key.id(),
                device,
                ServingQuery.P99_TTFT,
                "ms",
                "LOWER_IS_BETTER",
                runs,
                ttftP99,
                interval ? ttftP99 * 0.95 : null,
                interval ? ttftP99 * 1.05 : null);
    }

    private static void row(
            Connection c,
            String keyId,
            String device,
            String metric,
            String unit,
            String direction,
            int runs,
            double mean,
            Double low,
            Double high)
            throws SQLException {
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                        + "ci95_low, ci95_high, best, cv) VALUES (?, ?, ?, 'measured', ?, ?, ?, ?, ?, ?, ?, ?, ?, 0.01) ON CONFLICT DO NOTHING",
                keyId,
                metric,
                device,
                BENCHMARK,
                unit,
                direction,
                runs,
                runs,
                mean,
                low,
                high,
                mean);
    }

    private static void update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    @Test
    void eachDeviceIsACurveThroughItsConcurrenciesWithThroughputPerAccelerator() {
        JsonPath json = given().get("/api/v1/serving?benchmark=" + BENCHMARK)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getList("groups")).hasSize(1);
        assertThat(json.getString("groups[0].label"))
                .contains("Llama-3.1-8B")
                .doesNotContain("concurrency")
                .doesNotContain("accelerators");
        List<String> devices = json.getList("groups[0].curves.deviceId");
        assertThat(devices).containsExactlyInAnyOrder(H100, HOSTILE_DEVICE);
        int h100 = devices.indexOf(H100);
        assertThat(json.getList("groups[0].curves[" + h100 + "].points.paramValue"))
                .containsExactly("1", "8", "64");
        assertThat(json.getList("groups[0].curves[" + h100 + "].points.y", Double.class))
                .containsExactly(95.0, 480.0, 1200.0);
        assertThat(json.getList("groups[0].curves[" + h100 + "].points.yLow", Double.class))
                .containsExactly(90.0, 450.0, null);
    }

    @Test
    void theParetoFrontLeavesOutPointsBeatenOnBothAxes() {
        JsonPath json = given().get("/api/v1/serving?benchmark=" + BENCHMARK)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        List<String> devices = json.getList("groups[0].curves.deviceId");
        int hostile = devices.indexOf(HOSTILE_DEVICE);
        int h100 = devices.indexOf(H100);
        // H100 at 1 (95 tok/s/user, 95 per accelerator) beats the other device's (70, 120)? No: 120 > 95, both stay.
        assertThat(json.getList("groups[0].curves[" + h100 + "].points.onFront", Boolean.class))
                .containsExactly(true, false, true);
        // (65, 600) beats H100's (60, 480) on both axes, so H100 at 8 is off the front.
        assertThat(json.getList("groups[0].curves[" + hostile + "].points.onFront", Boolean.class))
                .containsExactly(true, true);
    }

    @Test
    void theChartMarksTheFrontAndDrawsIntervalsAndTheHostileLabelStaysText() {
        String html = given().get("/serving?benchmark=" + BENCHMARK)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Document doc = Jsoup.parse(html);
        Element svg = doc.selectFirst("section.serving-group svg");
        assertThat(svg.select("circle.point")).hasSize(5);
        assertThat(svg.select("circle.point.front")).hasSize(4);
        assertThat(svg.select("polyline.pareto-front")).hasSize(1);
        assertThat(svg.select("line.interval").stream()
                        .filter(l -> !l.attr("y1").equals(l.attr("y2"))))
                .hasSize(4);
        assertThat(svg.select("text.legend").eachText())
                .contains("NVIDIA H100 SXM \u00d7 2", SeedData.XSS_SCRIPT + " \u00d7 1");
        assertThat(doc.select("script")).isEmpty();
        assertThat(doc.select("table.serving-points tr.point")).hasSize(5);
        assertThat(doc.select("table.serving-points tr.point[data-device=" + H100 + "] td.front").stream()
                        .map(Element::text))
                .containsExactly("on the front", "", "on the front");
    }

    @Test
    void inARealBrowserTheChartDrawsEveryPointAndTheHostileLabelRunsNothing() throws Exception {
        try (HeadlessChromium chromium = HeadlessChromium.start()) {
            WebDriver browser = chromium.browser();
            browser.get(base.toString().replaceAll("/$", "") + "/serving?benchmark=" + BENCHMARK);
            await().atMost(HeadlessChromium.WAIT)
                    .until(() -> !browser.findElements(By.cssSelector("circle.point"))
                            .isEmpty());
            assertThat(browser.findElements(By.cssSelector("section.serving-group svg circle.point")))
                    .hasSize(5);
            assertThat(browser.findElements(By.cssSelector("svg polyline.pareto-front"))
                            .get(0)
                            .isDisplayed())
                    .isTrue();
            assertThat(browser.findElement(By.cssSelector("svg")).getText()).contains(SeedData.XSS_SCRIPT);
            assertThat(browser.findElements(By.cssSelector("table.serving-at-target tr.at-target")))
                    .hasSize(2)
                    .allMatch(WebElement::isDisplayed);
            assertThat(((JavascriptExecutor) browser)
                            .executeScript("return window.pwned === undefined && document.title"))
                    .isNotEqualTo(false)
                    .asString()
                    .doesNotContain("pwned");
        }
    }

    @Test
    void atALatencyTargetEachDeviceIsInterpolatedBetweenItsNeighbouringPointsWithARatioAndVerdict() {
        JsonPath json = given().get("/api/v1/serving?benchmark=" + BENCHMARK + "&target=100&baseline=" + HOSTILE_DEVICE)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .using(DOUBLES);
        assertThat(json.getString("groups[0].target.metric")).isEqualTo(ServingQuery.P99_TTFT);
        assertThat(json.getBoolean("groups[0].target.lowerIsBetter")).isTrue();
        assertThat(json.getBoolean("groups[0].target.defaulted")).isFalse();
        List<String> devices = json.getList("groups[0].curves.deviceId");
        String h100 = "groups[0].curves[" + devices.indexOf(H100) + "]";
        String hostile = "groups[0].curves[" + devices.indexOf(HOSTILE_DEVICE) + "]";
        // H100: TTFT 40 ms at 95 per accelerator, 150 ms at 480: 100 ms is 60/110 of the way, 95 + 385·6/11 = 305.
        assertThat(json.getDouble(h100 + ".atTarget.value")).isCloseTo(305.0, within(1e-9));
        assertThat(json.getString(h100 + ".atTarget.from")).isEqualTo("1");
        assertThat(json.getString(h100 + ".atTarget.to")).isEqualTo("8");
        assertThat(json.getDouble(h100 + ".atTarget.low")).isLessThan(305.0);
        assertThat(json.getDouble(h100 + ".atTarget.high")).isGreaterThan(305.0);
        // The other: 50 ms at 120, 300 ms at 600: a fifth of the way, 216; the baseline, so it has no ratio.
        assertThat(json.getDouble(hostile + ".atTarget.value")).isCloseTo(216.0, within(1e-9));
        assertThat(json.getString(hostile + ".ratio")).isNull();
        assertThat(json.getDouble(h100 + ".ratio.interval.ratio")).isCloseTo(305.0 / 216.0, within(1e-9));
        assertThat(json.getDouble(h100 + ".ratio.interval.low")).isGreaterThan(1.05);
        assertThat(json.getString(h100 + ".ratio.equivalence.verdict")).isEqualTo("faster");
        assertThat(json.getString(h100 + ".ratio.equivalence.margin")).isEqualTo("\u00b15%");
    }

    @Test
    void withoutATargetTheMiddleOfTheSharedRangeIsUsedAndASingleRunPointGivesNoInterval() {
        JsonPath json = given().get("/api/v1/serving?benchmark=" + BENCHMARK)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .using(DOUBLES);
        // TTFT from 40 to 900 ms and from 50 to 300: the shared range 50 to 300, its middle 175.
        assertThat(json.getDouble("groups[0].target.value")).isEqualTo(175.0);
        assertThat(json.getBoolean("groups[0].target.defaulted")).isTrue();
        List<String> devices = json.getList("groups[0].curves.deviceId");
        String h100 = "groups[0].curves[" + devices.indexOf(H100) + "]";
        // Between concurrency 8 and 64, whose single run has no interval.
        assertThat(json.getString(h100 + ".atTarget.to")).isEqualTo("64");
        assertThat(json.getString(h100 + ".atTarget.low")).isNull();
        assertThat(json.getString(h100 + ".ratio.note")).contains("single run");
    }

    @Test
    void aTargetNoPointMeetsIsNotReachedAndOneEveryPointMeetsIsAboveEveryPointNeverExtrapolated() {
        Document missed = Jsoup.parse(given().get("/serving?benchmark=" + BENCHMARK + "&target=20")
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(missed.select("table.serving-at-target tr.at-target td.value")
                        .eachText())
                .containsExactly("not reached", "not reached");
        Document passed = Jsoup.parse(given().get("/serving?benchmark=" + BENCHMARK + "&target=5000")
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(passed.select("table.serving-at-target tr.at-target td.value")
                        .eachText())
                .containsExactly("above every point", "above every point");
        assertThat(passed.selectFirst("table.serving-at-target caption").text()).contains("ttft_p99_ms \u2264 5000");
    }

    @Test
    void aPerUserSpeedTargetReadsAtLeastAndPassesBelowEveryPoint() {
        JsonPath json = given().get("/api/v1/serving?benchmark=" + BENCHMARK
                        + "&target_metric=output_token_throughput_per_user&target=62")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .using(DOUBLES);
        assertThat(json.getBoolean("groups[0].target.lowerIsBetter")).isFalse();
        List<String> devices = json.getList("groups[0].curves.deviceId");
        String h100 = "groups[0].curves[" + devices.indexOf(H100) + "]";
        String hostile = "groups[0].curves[" + devices.indexOf(HOSTILE_DEVICE) + "]";
        // 95 tok/s/user at 95 per accelerator, 60 at 480: 62 is 33/35 of the way, 95 + 385·33/35 = 458.
        assertThat(json.getDouble(h100 + ".atTarget.value")).isCloseTo(458.0, within(1e-9));
        assertThat(json.getString(hostile + ".atTarget.status")).isEqualTo("BEYOND_EVERY_POINT");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "0", "NaN", "Infinity", "1e300", "2000000", "abc", "12345678901234567890123"})
    void aHostileTargetAnswersAClear400OnThePageTheJsonAndTheCsv(String target) {
        for (String path : List.of("/serving", "/api/v1/serving", "/api/v1/serving/at-target.csv")) {
            String body = given().queryParam("benchmark", BENCHMARK)
                    .queryParam("target", target)
                    .get(path)
                    .then()
                    .statusCode(400)
                    .extract()
                    .asString();
            assertThat(body).as(path).startsWith("target must be a number above 0");
        }
        given().get("/api/v1/serving?benchmark=" + BENCHMARK + "&margin=abc")
                .then()
                .statusCode(400);
    }

    @Test
    void theCsvCarriesTheSameValuesRatiosVerdictAndMarginAsTheJson() {
        String query = "?benchmark=" + BENCHMARK + "&target=100&baseline=" + HOSTILE_DEVICE;
        JsonPath json = given().get("/api/v1/serving" + query)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .using(DOUBLES);
        String csv = given().get("/api/v1/serving/at-target.csv" + query)
                .then()
                .statusCode(200)
                .contentType(containsString("text/csv"))
                .extract()
                .asString();
        List<String> lines = List.of(csv.split("\r\n"));
        List<String> header = List.of(lines.get(0).split(","));
        assertThat(lines).hasSize(3);
        String h100Line = lines.stream()
                .filter(l -> l.contains("," + H100 + ","))
                .findFirst()
                .orElseThrow();
        String[] cells = h100Line.replaceAll("\"[^\"]*\"", "label").split(",", -1);
        List<String> devices = json.getList("groups[0].curves.deviceId");
        String h100 = "groups[0].curves[" + devices.indexOf(H100) + "]";
        assertThat(Double.parseDouble(cells[header.indexOf("value")]))
                .isEqualTo(json.getDouble(h100 + ".atTarget.value"));
        assertThat(Double.parseDouble(cells[header.indexOf("ci95_low")]))
                .isEqualTo(json.getDouble(h100 + ".atTarget.low"));
        assertThat(Double.parseDouble(cells[header.indexOf("ratio_ci95_high")]))
                .isEqualTo(json.getDouble(h100 + ".ratio.interval.high"));
        assertThat(cells[header.indexOf("verdict")]).isEqualTo(json.getString(h100 + ".ratio.equivalence.verdict"));
        assertThat(cells[header.indexOf("margin")]).isEqualTo("\u00b15%");
        assertThat(cells[header.indexOf("status")]).isEqualTo("REACHED");
    }

    @Test
    void aBenchmarkWithoutServingResultsSaysSo() {
        Document doc = Jsoup.parse(given().get("/serving?benchmark=" + SeedData.LOCAL_BENCHMARK)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(doc.selectFirst("#serving-message").text())
                .contains("No measured results of output_token_throughput_per_user");
        assertThat(given().get("/serving").then().statusCode(200).extract().asString())
                .contains("Choose a benchmark");
    }
}
