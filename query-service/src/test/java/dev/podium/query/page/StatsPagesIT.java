package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.hamcrest.Matchers.startsWith;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import dev.podium.query.support.StatsSeeds;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Ratio intervals, validity toggle, cost, energy and scaling columns, histories, regressions and their feed. */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class StatsPagesIT {

    private static final String ONE = StatsSeeds.key(1).id();
    private static final String EIGHT = StatsSeeds.key(8).id();

    private static Document page(String pathAndQuery) {
        return Jsoup.parse(given().when()
                .get(pathAndQuery)
                .then()
                .statusCode(200)
                .extract()
                .asString());
    }

    private static Element row(Document doc, String table, String text) {
        return doc.select("#" + table + " tbody tr").stream()
                .filter(r -> r.text().contains(text))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theRegressionsPageListsTheStepWithItsLevelsAndVersions() {
        Document doc = page("/regressions");

        Element r = row(doc, "regressions", "sim-trust");
        assertThat(r.text())
                .contains("regression")
                .contains("NVIDIA H200")
                .contains("2.4.0 → 2.5.1")
                .contains("-10.");
        assertThat(r.select("a.history").attr("href")).startsWith("/history?key=" + ONE);
        assertThat(doc.select("#method").text())
                .contains("optimal partitioning")
                .contains("max(4.0·ln n, 30)");
        assertThat(doc.select("link[rel=alternate][type=application/atom+xml]").attr("href"))
                .startsWith("/regressions.atom");
        assertThat(page("/regressions?kind=improvements&benchmark=sim-trust").select("#no-changes"))
                .hasSize(1);
    }

    @Test
    void theAtomFeedCarriesOneEntryPerRegression() {
        Response r = given().when().get("/regressions.atom?benchmark=sim-trust");
        r.then().statusCode(200);
        assertThat(r.contentType()).startsWith("application/atom+xml");
        Document feed = Jsoup.parse(r.asString(), "", Parser.xmlParser());

        assertThat(feed.select("feed > entry")).hasSize(1);
        assertThat(feed.select("entry > title").text())
                .startsWith("regression -10.")
                .contains("NVIDIA H200");
        assertThat(feed.select("entry > link").attr("href")).startsWith("http").contains("/history?key=" + ONE);
        assertThat(feed.select("entry > category").attr("term")).isEqualTo("regression");
        assertThat(feed.select("feed > updated").text()).endsWith("Z");
    }

    @Test
    void theHistoryShowsEveryRunTheFittedLevelsAndTheStep() {
        Document doc = page("/history?key=" + ONE + "&metric=" + StatsSeeds.METRIC + "&device=" + StatsSeeds.H200);

        assertThat(doc.select("#points tbody tr")).hasSize(30);
        assertThat(doc.select("#points tr.step td:first-child").text()).isEqualTo(String.valueOf(StatsSeeds.STEP_AT));
        assertThat(doc.select("#steps tbody tr")).hasSize(1);
        assertThat(doc.select("#versions tbody tr td:first-child").eachText()).containsExactly("2.4.0", "2.5.1");
        assertThat(doc.select("#versions td.version-ratio").eachText().get(0)).isEqualTo("—");
        assertThat(doc.select("#versions td.version-ratio").eachText().get(1)).isEqualTo("0.900× (95% CI 0.897–0.902)");
        assertThat(doc.select("#versions td.verdict").eachText().get(1)).isEqualTo("worse than baseline");
        assertThat(doc.select("svg polyline")).hasSize(2);
    }

    @Test
    void theHistoryApiNamesTheStepItsIndexAndTheMethod() {
        JsonPath json = given().queryParam("key", ONE)
                .queryParam("metric", StatsSeeds.METRIC)
                .queryParam("device", StatsSeeds.H200)
                .when()
                .get("/api/v1/history")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(json.getList("points")).hasSize(30);
        assertThat(json.getInt("changes[0].index")).isEqualTo(StatsSeeds.STEP_AT);
        assertThat(json.getString("changes[0].kind")).isEqualTo("regression");
        assertThat(json.getDouble("changes[0].before")).isCloseTo(100, within(0.3));
        assertThat(json.getDouble("changes[0].after")).isCloseTo(90, within(0.3));
        assertThat(json.getString("method")).contains("optimal partitioning");
    }

    @Test
    void comparisonRatiosCarryAWelchIntervalFromTheRepetitions() {
        Document doc = page("/compare?benchmark=sim-trust&source=measured");

        Element r = row(doc, "matrix", "NVIDIA H200");
        assertThat(r.select("span.ratio").text()).isEqualTo("1.93×");
        assertThat(r.select("span.ci").text()).isEqualTo("1.89–1.96");
        assertThat(r.select("span.ci").hasClass("ci-better")).isTrue();
        assertThat(r.select("span.ci").attr("title")).isEqualTo("better than baseline");
        assertThat(doc.select("#interval-rule").text()).contains("Welch's t interval");
        // Three runs or more on each side: each run's mean counts once (Samples). Reference:
        // scipy.stats.ttest_ind(log(h200 run
        // means), log(a100 run means), equal_var=False).confidence_interval(0.95), exponentiated.
        JsonPath json = given().when()
                .get("/api/v1/comparison?benchmark=sim-trust&source=measured")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getString("intervals[0].interval.method")).isEqualTo("welch-log-t");
        assertThat(json.getInt("intervals[0].interval.n")).isEqualTo(30);
        assertThat(json.getInt("intervals[0].interval.baselineN")).isEqualTo(3);
        assertThat(json.getDouble("intervals[0].interval.ratio")).isCloseTo(1.9266129961618224, within(1e-6));
        assertThat(json.getDouble("intervals[0].interval.low")).isCloseTo(1.890128974038725, within(1e-6));
        assertThat(json.getDouble("intervals[0].interval.high")).isCloseTo(1.9638012474082023, within(1e-6));
    }

    @Test
    void eachMeasuredRatioCarriesOneVerdictAtTheMarginAndTheRunsThatWouldSettleIt() {
        Document doc = page("/compare?benchmark=sim-trust&source=measured");

        Element r = row(doc, "matrix", "NVIDIA H200");
        // 1.89-1.96 lies beyond 1.05: faster, whatever the margin up to 89%.
        assertThat(r.select("span.eq").text()).isEqualTo("faster");
        assertThat(r.select("span.eq").hasClass("eq-differs")).isTrue();
        assertThat(r.select("span.runs-needed").text()).matches("\\d+ runs a side");
        assertThat(doc.select("#margin").text()).isEqualTo("\u00b15%");
        assertThat(doc.select("#runs-formula summary").text()).contains("Runs a side needed");
        assertThat(doc.select("#runs-formula p").text()).contains("t0.975 + t0.80", "80% power");

        JsonPath json = given().when()
                .get("/api/v1/comparison?benchmark=sim-trust&source=measured&margin=2.5")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getString("intervals[0].equivalence.verdict")).isEqualTo("faster");
        assertThat(json.getString("intervals[0].equivalence.margin")).isEqualTo("\u00b12.5%");
        assertThat(json.getDouble("intervals[0].equivalence.marginPercent")).isEqualTo(2.5);
        assertThat(json.getInt("intervals[0].equivalence.runs.toTellApart")).isGreaterThanOrEqualTo(2);
        assertThat(json.getDouble("margin.percent")).isEqualTo(2.5);

        String csv = given().when()
                .get("/api/v1/comparison.csv?benchmark=sim-trust&source=measured")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(csv.lines().findFirst().orElseThrow()).contains(",margin,known_device");
        assertThat(csv.lines()
                        .filter(l -> l.contains("NVIDIA H200"))
                        .findFirst()
                        .orElseThrow())
                .contains(",faster,")
                .contains(",\u00b15%,");
    }

    @Test
    void eachMeasuredRatioShowsWhereItsSidesConfigurationsDifferAndWhichRunsCounted() {
        Document doc = page("/compare?benchmark=sim-trust&source=measured");

        Element r = row(doc, "matrix", "NVIDIA H200");
        // The sides share the runtime, so only the driver and framework are listed; the A100's failing run is left out.
        assertThat(r.select("ul.differs li").eachText())
                .containsExactly(
                        "driver: 550.54.15 / 535.104.05", "framework: pytorch 2.4.0, pytorch 2.5.1 / pytorch 2.5.1");
        assertThat(r.select("span.tally").text())
                .isEqualTo("30 of 30 runs counted / 3 of 4 runs counted (1 failed a check)");
        assertThat(r.select("span.power-cap")).isEmpty();
        assertThat(r.select("span.baseline-power-cap").text())
                .isEqualTo("baseline's power limit lowered: 1 run at 250.0 W of its 400.0 W default");

        JsonPath json = given().when()
                .get("/api/v1/comparison?benchmark=sim-trust&source=measured")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getString("intervals[0].differences[0].setting")).isEqualTo("driver");
        assertThat(json.getList("intervals[0].differences[0].values")).containsExactly("550.54.15");
        assertThat(json.getList("intervals[0].differences[0].baselineValues")).containsExactly("535.104.05");
        assertThat(json.getList("intervals[0].differences.setting")).containsExactly("driver", "framework");
        assertThat(json.getInt("intervals[0].runs.attempted")).isEqualTo(30);
        assertThat(json.getInt("intervals[0].baselineRuns.attempted")).isEqualTo(4);
        assertThat(json.getInt("intervals[0].baselineRuns.counted")).isEqualTo(3);
        assertThat(json.getString("intervals[0].baselineRuns.leftOut[0].reason"))
                .isEqualTo("failed a check");
        assertThat(json.getDouble("intervals[0].baselinePowerCap.limitWatts")).isEqualTo(250.0);
        assertThat(json.getDouble("intervals[0].baselinePowerCap.defaultWatts")).isEqualTo(400.0);

        String csv = given().when()
                .get("/api/v1/comparison.csv?benchmark=sim-trust&source=measured")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(csv.lines().findFirst().orElseThrow()).contains(",differs from baseline total_accelerators=1,");
        assertThat(csv.lines()
                        .filter(l -> l.contains("NVIDIA H200"))
                        .findFirst()
                        .orElseThrow())
                .contains(",30 of 30 runs counted,")
                .contains("driver: 550.54.15 / 535.104.05; framework: pytorch 2.4.0, pytorch 2.5.1 / pytorch 2.5.1");
    }

    @Test
    void aMarginAskedForIsTheOneTheVerdictsAndLinksUse() {
        Document doc = page("/compare?benchmark=sim-trust&source=measured&margin=20");
        assertThat(doc.select("#margin").text()).isEqualTo("\u00b120%");
        assertThat(row(doc, "matrix", "NVIDIA H200").select("span.eq").text()).isEqualTo("faster");
        assertThat(doc.select("#matrix a.make-baseline").eachAttr("href")).allMatch(h -> h.contains("margin=20"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "0", "1e308", "NaN", "Infinity", "five", "120", "5%25", "0.0001"})
    void hostileMarginsAnswer400WithWhatAMarginMustBe(String margin) {
        for (String path : List.of("/compare", "/api/v1/comparison", "/api/v1/comparison.csv")) {
            assertThat(given().when()
                            .get(path + "?benchmark=sim-trust&source=measured&margin=" + margin)
                            .then()
                            .statusCode(400)
                            .extract()
                            .asString())
                    .as(path + " margin=" + margin)
                    .contains("margin must be a number of percent from 0.1 to 50");
        }
    }

    @Test
    void publishedRatiosSayTheyHaveNoInterval() {
        Document doc = page("/compare?benchmark=bridgetower-finetune&source=published");

        assertThat(doc.select("#matrix span.ratio").eachAttr("title"))
                .isNotEmpty()
                .allMatch(t -> t.equals("published figure without per-repetition values: no interval"));
        assertThat(doc.select("#matrix span.ci")).isEmpty();
    }

    @Test
    void leaderboardsLeaveOutFailingRunsUntilAskedAndSayHowMany() {
        Document doc = page("/leaderboard?benchmark=sim-trust&key=" + ONE);

        assertThat(row(doc, "leaderboard", "A100").select("td.mean").text()).isEqualTo("50.11");
        assertThat(doc.select("#validity-note").text()).contains("1 run(s) that failed a validity check are left out");
        String toggle = doc.select("#toggle-failing").attr("href");
        assertThat(toggle).contains("include=failing").contains("key=" + ONE);

        Document all = page(toggle);
        assertThat(row(all, "leaderboard", "A100").select("td.mean").text()).isEqualTo("42.58");
        assertThat(row(all, "leaderboard", "A100").select("td.failing").text())
                .isEqualTo("1 failing 1 run at 250.0 W of its 400.0 W default");
        assertThat(all.select("#toggle-failing").attr("href")).doesNotContain("include=");
        assertThat(all.select("#leaderboard th a[href*=sort=mean]").attr("href"))
                .contains("include=failing");
    }

    @Test
    void leaderboardsShowTheShareOfMeasuredMatmulAndMfuWithTheirDenominatorsAndIntervals() {
        Document doc = page("/leaderboard?benchmark=sim-trust&key=" + ONE);

        assertThat(doc.select("#leaderboard th.share-matmul").text()).isEqualTo("Share of measured matmul");
        assertThat(doc.select("#leaderboard th.mfu").text()).isEqualTo("MFU");
        assertThat(doc.select("#leaderboard th.mbu")).isEmpty();
        Element a100 = row(doc, "leaderboard", "A100");
        assertThat(a100.select("td.share-matmul").text()).isEqualTo("50.0% ± 5.0% of 250.0 TFLOP/s measured");
        assertThat(a100.select("td.mfu").text()).isEqualTo("40.0% ± 2.5% of 312.0 TFLOP/s peak");
        Element h200 = row(doc, "leaderboard", "H200");
        assertThat(h200.select("td.share-matmul").text()).isEqualTo("— declared");
        assertThat(h200.select("td.mfu").text()).isEqualTo("30.0% of 989.0 TFLOP/s peak");
    }

    @Test
    void leaderboardsShowSamplesPerDollarEnergyPerSampleAndScaling() {
        Document doc = page("/leaderboard?benchmark=sim-trust&key=" + ONE);

        Element a100 = row(doc, "leaderboard", "A100");
        assertThat(a100.select("td.per-dollar").text()).isEqualTo("90200.0");
        // Approximate (from power samples over the measured window), with half its 95% interval over the runs.
        assertThat(a100.select("td.energy").text()).matches("≈ 7\\.98 ± [0-9.]+");
        // At $2.00 (on demand) and $0.90 (owned) per device-hour, about 50 samples/s: $11.1 and $5.0 a million.
        assertThat(a100.select("td.cost-per-million").text())
                .matches("cloud on-demand \\$11\\.[0-9]+ ± [0-9.]+; own hardware, amortised \\$5\\.[0-9]+ ± [0-9.]+");
        assertThat(row(doc, "leaderboard", "H200").select("td.per-dollar").text())
                .isEqualTo("—");
        assertThat(doc.select("#leaderboard th.per-dollar").text()).isEqualTo("samples per $");
        assertThat(row(doc, "leaderboard", "H200").select("td.history a").attr("href"))
                .isEqualTo("/history?key=" + ONE + "&metric=" + StatsSeeds.METRIC + "&device=" + StatsSeeds.H200);

        Document eight = page("/leaderboard?benchmark=sim-trust&key=" + EIGHT);
        Element scaling = row(eight, "leaderboard", "H200").selectFirst("td.scaling");
        // 82.8% of linear, from 30 runs at one accelerator and 3 runs (630, 640, 650) at eight: beyond 5% of 100%.
        assertThat(scaling.text()).startsWith("82.8% vs 1 slower, ").endsWith(" runs a side");
        assertThat(scaling.select("span.eq").attr("title")).isEqualTo("against linear scaling (100%)");
        // At a margin of 50% an efficiency of 82.8% is within it.
        assertThat(row(page("/leaderboard?benchmark=sim-trust&margin=50&key=" + EIGHT), "leaderboard", "H200")
                        .select("td.scaling span.eq")
                        .text())
                .startsWith("slower by less than 50%");
        given().when()
                .get("/api/v1/leaderboard.csv?benchmark=sim-trust&margin=0&key=" + EIGHT)
                .then()
                .statusCode(400);
        given().when().get("/leaderboard?benchmark=sim-trust&margin=abc").then().statusCode(400);
        JsonPath json = given().when()
                .get("/api/v1/leaderboard?benchmark=sim-trust&key=" + EIGHT)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getDouble("extras.columns[0].scalingEfficiency")).isCloseTo(0.8276115328006435, within(1e-6));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"' OR '1'='1", "<script>alert(1)</script>", "%00", "", "0193a0c0-0000-7000-8000-00000000000a"})
    void historyOfAnUnknownOrHostileKeyIsNotFound(String key) {
        given().queryParam("key", key)
                .queryParam("metric", StatsSeeds.METRIC)
                .queryParam("device", StatsSeeds.H200)
                .when()
                .get("/api/v1/history")
                .then()
                .statusCode(404);
        given().queryParam("key", key)
                .queryParam("metric", StatsSeeds.METRIC)
                .queryParam("device", StatsSeeds.H200)
                .when()
                .get("/history")
                .then()
                .statusCode(404);
    }

    @Test
    void oversizedOrMissingHistoryArgumentsAreNotFound() {
        given().queryParam("key", ONE)
                .queryParam("metric", "m".repeat(1000))
                .queryParam("device", StatsSeeds.H200)
                .when()
                .get("/api/v1/history")
                .then()
                .statusCode(404);
        given().queryParam("key", ONE)
                .queryParam("metric", "m".repeat(5000))
                .queryParam("device", StatsSeeds.H200)
                .when()
                .get("/api/v1/history")
                .then()
                .statusCode(414);
        given().queryParam("key", ONE).when().get("/api/v1/history").then().statusCode(404);
        given().when().get("/history").then().statusCode(404);
    }

    @Test
    void aKnownKeyWithAHostileDeviceIsAnEmptyHistoryShownAsText() {
        Document doc = Jsoup.parse(given().queryParam("key", ONE)
                .queryParam("metric", StatsSeeds.METRIC)
                .queryParam("device", SeedData.XSS_IMG)
                .when()
                .get("/history")
                .then()
                .statusCode(200)
                .extract()
                .asString());

        assertThat(doc.select("script, img, [onerror]")).isEmpty();
        assertThat(doc.select("h1").text()).contains(SeedData.XSS_IMG);
        assertThat(doc.select("#no-steps")).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "?kind=<script>&limit=-5",
                "?limit=99999999999999",
                "?limit=abc",
                "?kind=all&kind=regressions&limit=1"
            })
    void hostileRegressionQueriesFallBackToDefaults(String query) {
        Document doc = page("/regressions" + query.replace(" ", "%20").replace("'", "%27"));
        assertThat(doc.select("script, img, [onerror]")).isEmpty();

        JsonPath json = given().when()
                .get("/api/v1/regressions" + query.replace(" ", "%20").replace("'", "%27"))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getString("kind")).isIn("regressions", "all");
        assertThat(json.getInt("limit")).isBetween(1, 500);
        given().when()
                .get("/regressions.atom" + query.replace(" ", "%20").replace("'", "%27"))
                .then()
                .statusCode(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"?limit=abc&benchmark=" + "%3Cimg%20src%3Dx%3E", "?benchmark=%27%20OR%201=1%20--"})
    void aBenchmarkThatIsNotThereIsNotFoundAsPlainTextRatherThanEveryBenchmarkShown(String query) {
        for (String path : List.of("/regressions", "/api/v1/regressions", "/regressions.atom")) {
            given().when()
                    .get(path + query)
                    .then()
                    .statusCode(404)
                    .contentType(startsWith("text/plain"))
                    .body(startsWith("No benchmark named"));
        }
    }

    @Test
    void theFeedEscapesWhatAgentsWrote() {
        String xml = given().when()
                .get("/regressions.atom?kind=all")
                .then()
                .statusCode(200)
                .extract()
                .asString();

        assertThat(xml).startsWith("<?xml").doesNotContain("<script").doesNotContain("<img");
        assertThat(Jsoup.parse(xml, "", Parser.xmlParser()).select("feed")).hasSize(1);
        // A strict XML parser reads it, and the hostile run's step is text in it.
        javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        org.w3c.dom.Document doc = Assertions.assertDoesNotThrow(() -> {
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return f.newDocumentBuilder().parse(new org.xml.sax.InputSource(new java.io.StringReader(xml)));
        });
        assertThat(doc.getDocumentElement().getNamespaceURI()).isEqualTo("http://www.w3.org/2005/Atom");
        assertThat(doc.getElementsByTagNameNS("*", "script").getLength()).isZero();
        assertThat(doc.getElementsByTagNameNS("*", "img").getLength()).isZero();
        assertThat(doc.getDocumentElement().getTextContent())
                .contains(SeedData.XSS_IMG)
                .contains(SeedData.UNICODE);
    }

    @Test
    void theOpenApiDocumentListsHistoryAndRegressions() {
        String doc = given().when()
                .get("/api/v1/openapi")
                .then()
                .statusCode(200)
                .extract()
                .asString();

        assertThat(doc).contains("/api/v1/history").contains("/api/v1/regressions");
    }

    @Test
    void aRunShowsItsValidityChecksAsBadges() {
        Document doc = page("/runs/" + StatsSeeds.FAILING_RUN);

        assertThat(doc.select("#validity-badges .badge-check-fail").eachText()).containsExactly("✘ cv_below_10pct");
        assertThat(page("/runs/" + StatsSeeds.historyRun(0))
                        .select("#validity-badges .badge-check-pass")
                        .eachText())
                .containsExactly("✔ cv_below_10pct");
    }

    @Test
    void comparisonsShowCostEnergyAndScalingPerCell() {
        Document doc = page("/compare?benchmark=sim-trust&source=measured");

        Element a100 = row(doc, "costs", "A100");
        assertThat(a100.select("td.per-dollar").text()).isEqualTo("90200.0");
        assertThat(a100.select("td.energy").text()).matches("≈ 7\\.98 ± [0-9.]+");
        assertThat(a100.select("td.cost-per-million").text()).startsWith("cloud on-demand $11.");
        Element h200 = row(doc, "costs", "H200");
        assertThat(h200.select("td:nth-child(3)").text()).isEqualTo("8");
        assertThat(h200.select("td.scaling").text()).isEqualTo("82.8% vs 1");
        assertThat(doc.select("#costs tbody tr")).hasSize(2);
    }
}
