package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.PublishedSeeds;
import dev.podium.query.support.SeedData;
import dev.podium.query.support.StatsSeeds;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What an admin hid ({@code proj_hidden_catalog}, as ingest's projection of CatalogEntryHidden writes it) is on no public
 * list, HTML, JSON or CSV, and a hidden benchmark or key asked for by name is not found; shown again, it is back. A
 * device id the alias table does not know is marked "unknown device" and ranked after the known ones.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class HiddenCatalogPagesIT {

    /** An accelerator no vendor makes: text an agent chose. */
    static final String INVENTED = "acme-warp-9000";

    private static final String BENCHMARK = StatsSeeds.BENCHMARK;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    private long position = 1_000_000;

    @AfterEach
    void showEverythingAgain() throws SQLException {
        update("DELETE FROM proj_hidden_catalog");
        update("DELETE FROM proj_leaderboard_row WHERE device_id = ?", INVENTED);
        update("DELETE FROM proj_device WHERE device_id = ?", INVENTED);
    }

    @Test
    void aHiddenBenchmarkLeavesEveryListAndIsNotFoundUntilShownAgain() throws SQLException {
        assertThat(benchmarkLists()).allSatisfy(list -> assertThat(list).contains(BENCHMARK));

        hide("benchmark", BENCHMARK, true);

        assertThat(benchmarkLists())
                .allSatisfy(list -> assertThat(list).isNotEmpty().doesNotContain(BENCHMARK));
        for (String path : List.of(
                "/leaderboard?benchmark=",
                "/compare?benchmark=",
                "/regressions?benchmark=",
                "/api/v1/leaderboard?benchmark=",
                "/api/v1/leaderboard.csv?benchmark=",
                "/api/v1/comparison?benchmark=",
                "/api/v1/comparison.csv?benchmark=",
                "/api/v1/regressions?benchmark=",
                "/serving?benchmark=",
                "/api/v1/serving?benchmark=")) {
            Response r = given().get(path + BENCHMARK);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.asString()).as(path).isEqualTo("No benchmark named \"" + BENCHMARK + "\".");
        }
        assertThat(given().get("/benchmarks/" + BENCHMARK).statusCode()).isEqualTo(404);
        assertThat(given().get("/api/v1/benchmarks/" + BENCHMARK).statusCode()).isEqualTo(404);

        hide("benchmark", BENCHMARK, false);

        assertThat(benchmarkLists()).allSatisfy(list -> assertThat(list).contains(BENCHMARK));
        assertThat(given().get("/leaderboard?benchmark=" + BENCHMARK).statusCode())
                .isEqualTo(200);
        assertThat(given().get("/benchmarks/" + BENCHMARK).statusCode()).isEqualTo(200);
        assertThat(given().get("/api/v1/serving?benchmark=" + BENCHMARK).statusCode())
                .isEqualTo(200);
    }

    @Test
    void aHiddenKeyLeavesTheKeyListsAndIsNotFoundUntilShownAgain() throws SQLException {
        String key = SeedData.localKey("1", null).id();
        String board = "/api/v1/leaderboard?benchmark=" + SeedData.LOCAL_BENCHMARK;
        String comparison = "/api/v1/comparison?benchmark=" + SeedData.LOCAL_BENCHMARK;
        assertThat(json(board).getList("keys.keyId", String.class)).contains(key);

        hide("key", key, true);

        assertThat(json(board).getList("keys.keyId", String.class)).isNotEmpty().doesNotContain(key);
        assertThat(json(comparison).getList("columns.keyId", String.class))
                .isNotEmpty()
                .doesNotContain(key);
        for (String path : List.of(
                "/api/v1/leaderboard?key=" + key,
                "/leaderboard?benchmark=" + SeedData.LOCAL_BENCHMARK + "&key=" + key,
                "/api/v1/leaderboard.csv?key=" + key,
                "/compare?group=" + key)) {
            Response r = given().get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.asString()).as(path).isEqualTo("No comparison key with id \"" + key + "\".");
        }
        assertThat(given().get("/keys/" + key).statusCode()).isEqualTo(404);

        hide("key", key, false);

        assertThat(json(board).getList("keys.keyId", String.class)).contains(key);
        assertThat(json(comparison).getList("columns.keyId", String.class)).contains(key);
        assertThat(given().get("/keys/" + key).statusCode()).isEqualTo(200);
    }

    @Test
    void aHiddenDeviceLeavesLeaderboardsComparisonsAndRunsUntilShownAgain() throws SQLException {
        String device = SeedData.H200;
        String board = "/api/v1/leaderboard?benchmark=" + PublishedSeeds.BENCHMARK + "&key="
                + SeedData.measuredKey("0").id();
        assertThat(devicesListed(board)).contains(device);

        hide("device", device, true);

        assertThat(devicesListed(board)).doesNotContain(device);
        assertThat(given().get(board.replace("leaderboard?", "leaderboard.csv?"))
                        .asString())
                .startsWith("rank,device_id,")
                .doesNotContain(device);
        assertThat(json("/api/v1/comparison?benchmark=" + PublishedSeeds.BENCHMARK + "&group="
                                + SeedData.measuredKey("0").id())
                        .getList("rows.deviceId", String.class))
                .doesNotContain(device);
        assertThat(given().get("/devices/" + device).statusCode()).isEqualTo(404);
        assertThat(given().get("/api/v1/devices/" + device).statusCode()).isEqualTo(404);

        hide("device", device, false);

        assertThat(devicesListed(board)).contains(device);
        assertThat(given().get("/devices/" + device).statusCode()).isEqualTo(200);
    }

    @Test
    void anInventedDeviceIsMarkedUnknownOnTheLeaderboard() throws SQLException {
        inventedDeviceWithTheBestMean();
        String query = "?benchmark=" + PublishedSeeds.BENCHMARK + "&key="
                + SeedData.measuredKey("0").id();

        JsonPath board = json("/api/v1/leaderboard" + query);
        List<String> ranked = board.getList("entries.deviceId", String.class);
        assertThat(ranked)
                .as("the sort asked for (best mean first); the invented device is marked, not moved")
                .containsExactly(INVENTED, SeedData.H200);
        assertThat(board.getList("entries.knownDevice", Boolean.class))
                .containsExactlyElementsOf(
                        ranked.stream().map(d -> !d.equals(INVENTED)).toList());
        assertThat(unknownMarks(page("/leaderboard" + query), "#leaderboard tbody tr"))
                .containsExactly(INVENTED);
        List<String> csv = given().get("/api/v1/leaderboard.csv" + query)
                .asString()
                .lines()
                .toList();
        assertThat(csv.get(0)).endsWith(",known_device");
        assertThat(csv.subList(1, csv.size()))
                .allSatisfy(line -> assertThat(line).endsWith(line.contains("," + INVENTED + ",") ? ",false" : ",true"))
                .anySatisfy(line -> assertThat(line).contains("," + INVENTED + ","));

        String group = "?benchmark=" + PublishedSeeds.BENCHMARK + "&group="
                + SeedData.measuredKey("0").id();
        JsonPath comparison = json("/api/v1/comparison" + group);
        assertThat(comparison.getList("rows.deviceId", String.class)).containsExactly(SeedData.H200, INVENTED);
        assertThat(comparison.getList("rows.knownDevice", Boolean.class)).containsExactly(true, false);
        assertThat(comparison.getString("baseline")).isEqualTo(SeedData.H200);
        assertThat(unknownMarks(page("/compare" + group), "#matrix tbody tr")).containsExactly(INVENTED);
        assertThat(given().get("/api/v1/comparison.csv" + group)
                        .asString()
                        .lines()
                        .toList())
                .anySatisfy(line -> assertThat(line).startsWith(INVENTED + ",").endsWith(",false"));

        List<String> home = page("/").select(".card").get(1).select("li a").eachAttr("href");
        assertThat(home.get(home.size() - 1)).isEqualTo("/devices/" + INVENTED);
        assertThat(unknownMarks(page("/"), ".card li")).containsExactly(INVENTED);
        assertThat(json("/api/v1/home").getList("devices.findAll { !it.knownDevice }.deviceId", String.class))
                .containsExactly(INVENTED);
        assertThat(json("/api/v1/home").getList("devices.findAll { it.knownDevice }.deviceId", String.class))
                .contains(SeedData.H200, SeedData.LOCAL_DEVICE, PublishedSeeds.GAUDI2);
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    /** The benchmarks offered by home (HTML and JSON), the leaderboard, the comparison, and those with regressions. */
    private static List<List<String>> benchmarkLists() {
        return List.of(
                page("/").select(".card").get(0).select("li a").eachText(),
                json("/api/v1/home").getList("benchmarks", String.class),
                page("/leaderboard").select("select[name=benchmark] option").eachAttr("value"),
                page("/compare").select("select[name=benchmark] option").eachAttr("value"),
                json("/api/v1/regressions?kind=all").getList("changes.benchmark", String.class),
                page("/regressions?kind=all")
                        .select("#regressions tbody td:eq(3)")
                        .eachText());
    }

    /** The devices of a leaderboard, JSON and HTML, and the runs on the home page of each. */
    private static List<String> devicesListed(String board) {
        List<String> out = new ArrayList<>(json(board).getList("entries.deviceId", String.class));
        page("/").select(".card").get(1).select("li a").eachAttr("href").stream()
                .map(h -> h.substring("/devices/".length()))
                .forEach(out::add);
        json("/api/v1/home").getList("recentRuns.deviceId", String.class).forEach(out::add);
        return out;
    }

    /** The device ids of the rows that {@code rows} selects which carry the "unknown device" mark. */
    private static List<String> unknownMarks(Document doc, String rows) {
        return doc.select(rows).stream()
                .filter(r -> r.select(".badge-unknown-device").text().equals("unknown device"))
                .map(r -> r.select("a[href^=/devices/]").attr("href").substring("/devices/".length()))
                .toList();
    }

    /** A measured row of {@link #INVENTED} under the measured key, far better than every real device's. */
    private void inventedDeviceWithTheBestMean() throws SQLException {
        update(
                "INSERT INTO proj_device (device_id, vendor, label, last_position) VALUES (?, 'Acme', 'Acme Warp 9000', ?)",
                INVENTED,
                position++);
        update(
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, "
                        + "mean, ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, ?, ?, 'measured', ?, 'samples/s', "
                        + "'HIGHER_IS_BETTER', 3, 9, 9999.0, 9998.0, 10000.0, 10000.0, 0.001, ?)",
                SeedData.measuredKey("0").id(),
                PublishedSeeds.METRIC,
                INVENTED,
                PublishedSeeds.BENCHMARK,
                new Timestamp(System.currentTimeMillis()));
    }

    /** The row ingest's projection leaves for a CatalogEntryHidden that hid ({@code hidden}) or showed an entry. */
    private void hide(String kind, String name, boolean hidden) throws SQLException {
        update("""
                INSERT INTO proj_hidden_catalog (kind, name, hidden, reason, actor, changed_at, position)
                VALUES (?, ?, ?, 'test', 'ops', now(), ?)
                ON CONFLICT (kind, name) DO UPDATE SET hidden = excluded.hidden, position = excluded.position""", kind, name, hidden, position++);
    }

    private void update(String sql, Object... params) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    private static JsonPath json(String path) {
        return given().get(path).then().statusCode(200).extract().jsonPath();
    }

    private static Document page(String path) {
        return Jsoup.parse(given().get(path).then().statusCode(200).extract().asString());
    }
}
