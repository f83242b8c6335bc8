package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.model.ComparisonKey;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import dev.podium.query.view.Labels;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The comparison's curves: each device's under the group shown, and its curves under another setting only where it has
 * none under the group shown (fewer than two points there, or no rows at all).
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class ComparisonCurvesIT {

    private static final String BENCHMARK = "curves-check";
    private static final String H200 = "nvidia-h200-sxm-141gb";
    private static final String MI300X = "amd-mi300x";
    private static final String GAUDI2 = "intel-gaudi2";

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    private static ComparisonKey key(String precision, String workers) {
        return new ComparisonKey(
                BENCHMARK,
                "1",
                "training",
                "model-c",
                precision,
                8,
                1,
                null,
                new TreeMap<>(Map.of("dataloader_num_workers", workers)));
    }

    @BeforeEach
    void seed() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            update(c, "INSERT INTO proj_benchmark (benchmark, last_position) VALUES (?, 1)", BENCHMARK);
            for (String precision : List.of("bf16", "fp16")) {
                for (String workers : List.of("0", "1", "2")) {
                    ComparisonKey k = key(precision, workers);
                    update(
                            c,
                            "INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions) VALUES (?, ?, ?, ?::jsonb)",
                            k.id(),
                            BENCHMARK,
                            k.canonical(),
                            "{\"benchmark\": \"" + BENCHMARK + "\", "
                                    + "\"benchmark_version\": \"1\", \"scenario\": \"training\", \"model\": \"model-c\", \"precision\": \""
                                    + precision
                                    + "\", \"per_device_batch_size\": \"8\", \"total_accelerators\": \"1\", "
                                    + "\"dataloader_num_workers\": \"" + workers + "\"}");
                }
            }
            // bf16 has more keys with rows than fp16, so it is the group shown by default.
            rows(c, "bf16", H200, 100.0, 150.0, 200.0);
            rows(c, "fp16", H200, 90.0, 180.0, null);
            rows(c, "fp16", MI300X, 50.0, 75.0, null);
            rows(c, "bf16", GAUDI2, 80.0, null, null);
            rows(c, "fp16", GAUDI2, 40.0, 60.0, null);
            SeedData.refreshPageCells(c);
        }
    }

    @Test
    void aDeviceGetsItsCurveUnderAnotherSettingOnlyWithoutOneUnderTheGroupShown() {
        Document doc = page("");

        assertThat(doc.select("#curves tbody tr")).hasSize(3);
        assertThat(curve(doc, H200)).containsExactly("as above", "1.00×", "1.50×", "2.00×");
        assertThat(curve(doc, MI300X)).containsExactly("precision=fp16", "1.00×", "1.50×", "—");
        assertThat(curve(doc, GAUDI2)).containsExactly("precision=fp16", "1.00×", "1.50×", "—");
    }

    @Test
    void curvesUnderAnotherSettingAreOfTheChosenDevicesOnly() {
        Document doc = page("&devices=" + GAUDI2);

        assertThat(doc.select("#curves tbody tr")).hasSize(1);
        assertThat(curve(doc, GAUDI2)).containsExactly("precision=fp16", "1.00×", "1.50×", "—");
    }

    @Test
    void theGroupShownDecidesWhichCurvesAreAsAbove() {
        Document doc = page("&group=" + key("fp16", "0").id());

        assertThat(doc.select("#curves tbody tr")).hasSize(3);
        assertThat(curve(doc, H200)).containsExactly("as above", "1.00×", "2.00×", "—");
        assertThat(curve(doc, MI300X)).containsExactly("as above", "1.00×", "1.50×", "—");
        assertThat(curve(doc, GAUDI2)).containsExactly("as above", "1.00×", "1.50×", "—");
    }

    @Test
    void measuredRatiosAlongTheParameterCarryTheirVerdictAtTheMargin() throws SQLException {
        // Three runs a side: 99.5 against 100 is the same within 5%, 80 against 100 slower; without runs' intervals
        // (the rows above have one run) a ratio has no verdict.
        String device = "cpu-two-core";
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            row(c, device, 0, 100.0, 1.0);
            row(c, device, 1, 99.5, 1.0);
            row(c, device, 2, 80.0, 1.0);
            SeedData.refreshPageCells(c);
        }
        Document doc = page("");

        assertThat(curve(doc, device))
                .containsExactly(
                        "as above", "1.00×", "1.00× same within ±5% 3 runs a side", "0.80× slower 3 runs a side");
        assertThat(curve(doc, H200)).containsExactly("as above", "1.00×", "1.50×", "2.00×");
        assertThat(doc.select("#curves-rule").text()).contains("at ±5%");
        assertThat(curve(page("&margin=0.2"), device).get(2)).startsWith("1.00× inconclusive at ±0.2%");
    }

    /** Other tests of the app see the same database. */
    @AfterEach
    void removeTheBenchmark() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            update(c, "DELETE FROM proj_leaderboard_row WHERE benchmark = ?", BENCHMARK);
            update(c, "DELETE FROM proj_comparison_key WHERE benchmark = ?", BENCHMARK);
            update(c, "DELETE FROM proj_benchmark WHERE benchmark = ?", BENCHMARK);
            SeedData.refreshPageCells(c);
        }
    }

    private static Document page(String query) {
        return Jsoup.parse(given().when()
                .get("/compare?benchmark=" + BENCHMARK + "&param=dataloader_num_workers" + query)
                .then()
                .statusCode(200)
                .extract()
                .asString());
    }

    /** A device's curve: its setting and its cells. */
    private static List<String> curve(Document doc, String deviceId) {
        Element row = doc.select("#curves tbody tr").stream()
                .filter(r -> r.child(0).text().equals(Labels.device(deviceId)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no curve for " + deviceId + " in "
                        + doc.select("#curves").text()));
        return row.children().subList(2, row.childrenSize()).stream()
                .map(Element::text)
                .toList();
    }

    /** Measured leaderboard rows of a device under the keys of one precision at workers 0, 1 and 2 (null: no row). */
    private static void rows(Connection c, String precision, String deviceId, Double... means) throws SQLException {
        for (int i = 0; i < means.length; i++) {
            if (means[i] != null) {
                update(
                        c,
                        "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                                + "ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, 'throughput', ?, 'measured', ?, 'samples/s', "
                                + "'HIGHER_IS_BETTER', 1, 3, ?, ?, ?, ?, 0, now())",
                        key(precision, Integer.toString(i)).id(),
                        deviceId,
                        BENCHMARK,
                        means[i],
                        means[i],
                        means[i],
                        means[i]);
            }
        }
    }

    /** A measured bf16 row of three runs at {@code workers}, its 95% interval mean ± {@code half}. */
    private static void row(Connection c, String deviceId, int workers, double mean, double half) throws SQLException {
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                        + "ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, 'throughput', ?, 'measured', ?, 'samples/s', "
                        + "'HIGHER_IS_BETTER', 3, 9, ?, ?, ?, ?, 0.01, now())",
                key("bf16", Integer.toString(workers)).id(),
                deviceId,
                BENCHMARK,
                mean,
                mean - half,
                mean + half,
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
}
