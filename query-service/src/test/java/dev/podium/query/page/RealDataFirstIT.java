package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.ComparisonKey;
import dev.podium.query.data.Queries;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.PublishedSeeds;
import dev.podium.query.support.SeedData;
import dev.podium.query.support.StatsSeeds;
import dev.podium.query.view.KeyListing;
import dev.podium.query.view.Links;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An enrolled agent that sends 2,100 RunStarted records, each naming a new benchmark on a new device, and 2,100 more under
 * new comparison keys of the local benchmark, all named to sort before the real ones: the rows ingest writes for them
 * (catalog rows and a running run each) are added before each test and removed after it. Nothing with counted results is
 * pushed off a list, the default benchmark is not one of them, a name that is not there answers 404 instead of another,
 * and recent runs are in the order ingest stored them, whatever date the agent gave.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class RealDataFirstIT {

    static final int FLOOD = 2100;
    static final String AGENT = "agent-flood";
    /** Before every real name. */
    static final String PREFIX = "aa-flood-";
    /** The most benchmarks or devices a list shows. */
    static final int LISTED = 1000;
    /** Ingest stored the flood after every seeded run. */
    static final long FIRST_POSITION = 1_000_000;

    private static final ObjectMapper JSON = EventCodec.newMapper();

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    private final List<String> floodKeys = new ArrayList<>();

    @BeforeEach
    void flood() throws SQLException {
        Timestamp now = Timestamp.from(Instant.now());
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement benchmark =
                        c.prepareStatement("INSERT INTO proj_benchmark (benchmark, last_position) VALUES (?, ?)");
                PreparedStatement device = c.prepareStatement(
                        "INSERT INTO proj_device (device_id, vendor, label, last_position) VALUES (?, NULL, ?, ?)");
                PreparedStatement key = c.prepareStatement(
                        "INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions) VALUES (?, ?, ?, ?::jsonb)");
                PreparedStatement run = c.prepareStatement(
                        "INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count, "
                                + "started_at, started_position, last_position) VALUES (?, ?, ?, 'running', ?, ?, ?, 1, ?, ?, ?)")) {
            c.setAutoCommit(false);
            for (int i = 0; i < FLOOD; i++) {
                String name = PREFIX + "%04d".formatted(i);
                long position = FIRST_POSITION + 2L * i;
                ComparisonKey own = key(name, "1");
                add(benchmark, name, position);
                add(device, name, name, position);
                addKey(key, own);
                addRun(run, runId(2 * i), own, name, now, position);
                ComparisonKey local = key(SeedData.LOCAL_BENCHMARK, "0-" + name);
                addKey(key, local);
                addRun(run, runId(2 * i + 1), local, SeedData.LOCAL_DEVICE, now, position + 1);
            }
            for (PreparedStatement ps : List.of(benchmark, device, key, run)) {
                ps.executeBatch();
            }
            c.commit();
        }
    }

    @AfterEach
    void unflood() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            update(c, "DELETE FROM proj_run WHERE agent_id = ?", AGENT);
            update(c, "DELETE FROM proj_comparison_key WHERE key_id = ANY(?)", (Object)
                    floodKeys.toArray(String[]::new));
            update(c, "DELETE FROM proj_benchmark WHERE benchmark LIKE ?", PREFIX + "%");
            update(c, "DELETE FROM proj_device WHERE device_id LIKE ?", PREFIX + "%");
        }
        floodKeys.clear();
    }

    @Test
    void theFloodPushesNoBenchmarkOrDeviceWithResultsOffTheHomePage() {
        Document home = page("/");
        List<String> benchmarks = home.select(".card").get(0).select("li a").eachText();
        List<String> devices = home.select(".card").get(1).select("li a").eachAttr("href");

        assertThat(benchmarks).hasSize(LISTED);
        assertThat(beforeTheFlood(benchmarks))
                .contains(
                        SeedData.MEASURED_BENCHMARK,
                        SeedData.LOCAL_BENCHMARK,
                        StatsSeeds.BENCHMARK,
                        SeedData.HOSTILE_BENCHMARK);
        assertThat(devices).hasSize(LISTED);
        assertThat(beforeTheFlood(devices.stream()
                        .map(h -> h.substring("/devices/".length()))
                        .toList()))
                .contains(SeedData.H200, SeedData.LOCAL_DEVICE, PublishedSeeds.A100, "intel-gaudi2")
                .as("devices with measured results before those with published figures only")
                .containsSubsequence(SeedData.LOCAL_DEVICE, "intel-gaudi2");
        assertThat(beforeTheFlood(given().get("/api/v1/home").jsonPath().getList("benchmarks", String.class)))
                .contains(SeedData.MEASURED_BENCHMARK, SeedData.LOCAL_BENCHMARK, StatsSeeds.BENCHMARK);
    }

    @Test
    void theLeaderboardAndComparisonOfferTheBenchmarksWithResultsFirst() {
        for (String path : List.of("/leaderboard", "/compare")) {
            List<String> offered =
                    page(path).select("select[name=benchmark] option").eachAttr("value");

            assertThat(beforeTheFlood(offered))
                    .as(path)
                    .contains(SeedData.MEASURED_BENCHMARK, SeedData.LOCAL_BENCHMARK, StatsSeeds.BENCHMARK);
        }
    }

    @Test
    void theFloodOfKeysPushesNoKeyWithResultsOffTheLeaderboardOrTheLocalPage() {
        Document board = page("/leaderboard?benchmark=" + SeedData.LOCAL_BENCHMARK);
        JsonPath json = given().get("/api/v1/leaderboard?benchmark=" + SeedData.LOCAL_BENCHMARK)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        Document local = page("/local");

        assertThat(board.select("#leaderboard td.mean")).isNotEmpty();
        assertThat(json.getList("keys.keyId", String.class))
                .contains(
                        SeedData.localKey("0", null).id(),
                        SeedData.localKey("1", null).id(),
                        SeedData.localKey("2", null).id());
        assertThat(json.getString("query.key")).isNotNull().isNotIn(floodKeys);
        assertThat(local.select("#local-curves tr.curve")
                        .select("td.point .normalised")
                        .eachText())
                .containsSubsequence("1.00×", "0.98×", "0.81×");
        assertThat(local.select("#local-curves tr.curve").text())
                .as("a key whose only run failed a validity check is not pushed off either")
                .contains("1 of its runs failed a validity check");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/leaderboard?benchmark=no-such-benchmark",
                "/compare?benchmark=no-such-benchmark",
                "/regressions?benchmark=no-such-benchmark",
                "/api/v1/leaderboard?benchmark=no-such-benchmark",
                "/api/v1/leaderboard.csv?benchmark=no-such-benchmark",
                "/api/v1/comparison?benchmark=no-such-benchmark",
                "/api/v1/comparison.csv?benchmark=no-such-benchmark",
                "/api/v1/regressions?benchmark=no-such-benchmark"
            })
    void aBenchmarkThatIsNotThereIsNotFoundRatherThanAnotherShown(String path) {
        Response r = given().get(path);

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.asString()).isEqualTo("No benchmark named \"no-such-benchmark\".");
    }

    @Test
    void aKeyThatIsNotThereOrIsAnotherBenchmarksIsNotFoundRatherThanAnotherShown() {
        String unknown = "0000000000000000";
        String localKey = SeedData.localKey("0", null).id();

        for (String path : List.of(
                "/leaderboard?benchmark=" + SeedData.MEASURED_BENCHMARK + "&key=" + unknown,
                "/api/v1/leaderboard.csv?key=" + unknown,
                "/compare?group=" + unknown,
                "/api/v1/comparison?benchmark=" + SeedData.MEASURED_BENCHMARK + "&group=" + unknown)) {
            Response r = given().get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.asString()).as(path).isEqualTo("No comparison key with id \"" + unknown + "\".");
        }
        Response another = given().get("/leaderboard?benchmark=" + SeedData.MEASURED_BENCHMARK + "&key=" + localKey);
        assertThat(another.statusCode()).isEqualTo(404);
        assertThat(another.asString()).contains(localKey).contains("is not one of benchmark");
        assertThat(given().get("/api/v1/leaderboard?key=" + localKey).jsonPath().getString("query.benchmark"))
                .as("a key alone names its benchmark")
                .isEqualTo(SeedData.LOCAL_BENCHMARK);
    }

    @Test
    void aKeyNamedIsShownEvenWithoutRowsUnderTheFiltersRatherThanAnother() {
        String published = PublishedSeeds.keyOf("gaudi2-workers0");

        JsonPath json = given().get("/api/v1/leaderboard?benchmark=" + SeedData.MEASURED_BENCHMARK + "&key=" + published
                        + "&source=measured")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(json.getString("query.key")).isEqualTo(published);
        assertThat(json.getString("key.keyId")).isEqualTo(published);
        assertThat(json.getList("entries")).isEmpty();
    }

    @Test
    void everyBenchmarkAndDevicePastTheHomePagesListsCanBeFound() {
        String last = PREFIX + "%04d".formatted(FLOOD - 1);
        assertThat(page("/").select(".card").get(0).select("li a").eachText()).doesNotContain(last);

        Document found = page("/?find=" + last.toUpperCase());
        assertThat(found.select(".card").get(0).select("li a").eachText()).containsExactly(last);
        assertThat(found.select(".card").get(1).select("li a").eachAttr("href")).containsExactly("/devices/" + last);
        assertThat(found.select(".found").text()).contains("1 benchmarks and 1 devices hold");
        JsonPath api = given().get("/api/v1/home?find=" + last)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(api.getList("benchmarks", String.class)).containsExactly(last);
        assertThat(api.getString("find")).isEqualTo(last);

        given().get("/?find=" + "y".repeat(KeyListing.MAX_FIND + 1)).then().statusCode(400);
        given().queryParam("find", "a\u0000b").get("/api/v1/home").then().statusCode(400);
    }

    @Test
    void aBenchmarksKeysArePagedWithTheRealOnesFirstAndEveryKeyCanBeFound() throws SQLException {
        String path = "/api/v1" + Links.benchmark(SeedData.LOCAL_BENCHMARK);
        JsonPath first = given().get(path).then().statusCode(200).extract().jsonPath();
        List<String> canonical = first.getList("keys.canonical", String.class);
        assertThat(canonical).hasSize(KeyListing.PER_PAGE);
        int real = (int) count(
                "SELECT count(*) FROM proj_comparison_key WHERE benchmark = ? AND NOT (key_id = ANY(?))",
                SeedData.LOCAL_BENCHMARK,
                floodKeys.toArray(String[]::new));
        assertThat(canonical.subList(0, real)).noneMatch(c -> c.contains(PREFIX));
        assertThat(first.getInt("keyPaging.page")).isEqualTo(1);
        assertThat(first.getInt("keyPaging.pages")).isEqualTo(Queries.MAX_KEYS / KeyListing.PER_PAGE);
        assertThat(first.getString("keyPaging.next")).isEqualTo(Links.benchmarkPage(SeedData.LOCAL_BENCHMARK, 2));
        assertThat(page(Links.benchmark(SeedData.LOCAL_BENCHMARK))
                        .select(".keys-listed")
                        .text())
                .contains("page 1 of " + Queries.MAX_KEYS / KeyListing.PER_PAGE);

        JsonPath past =
                given().get(path + "?page=999").then().statusCode(200).extract().jsonPath();
        assertThat(past.getInt("keyPaging.page")).isEqualTo(Queries.MAX_KEYS / KeyListing.PER_PAGE);
        assertThat(past.getString("keyPaging.next")).isNull();

        // The last flood key ranks past every page; a search finds it.
        String last = PREFIX + "%04d".formatted(FLOOD - 1);
        JsonPath found = given().get(path + "?find=" + last.toUpperCase())
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(found.getList("keys.canonical", String.class))
                .singleElement()
                .asString()
                .contains(last);

        for (String bad : List.of("?page=0", "?page=-1", "?page=x", "?find=" + "y".repeat(KeyListing.MAX_FIND + 1))) {
            given().get(path + bad).then().statusCode(400);
            given().get(Links.benchmark(SeedData.LOCAL_BENCHMARK) + bad).then().statusCode(400);
        }
    }

    @Test
    void withoutABenchmarkNamedPagesShowTheOneWithTheMostCountedResults() throws SQLException {
        String most = benchmarkWithTheMostCountedRuns();

        assertThat(most).doesNotStartWith(PREFIX);
        assertThat(given().get("/api/v1/leaderboard").jsonPath().getString("query.benchmark"))
                .isEqualTo(most);
        assertThat(given().get("/api/v1/comparison").jsonPath().getString("query.benchmark"))
                .isEqualTo(most);
        assertThat(page("/leaderboard")
                        .select("select[name=benchmark] option[selected]")
                        .attr("value"))
                .isEqualTo(most);
    }

    @Test
    void aRunDatedADayAheadDoesNotPinTheTopOfRecentRuns() throws SQLException {
        UUID pinned = runId(2 * FLOOD);
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement run = c.prepareStatement(
                        "INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count, "
                                + "started_at, started_position, last_position) VALUES (?, ?, ?, 'running', ?, ?, ?, 1, ?, ?, ?)")) {
            // Stored before the flood, dated 23 hours after it.
            addRun(
                    run,
                    pinned,
                    SeedData.measuredKey("0"),
                    SeedData.H200,
                    Timestamp.from(Instant.now().plus(Duration.ofHours(23))),
                    FIRST_POSITION - 1);
            run.executeBatch();
        }

        List<String> recent = page("/").select("a[href^=/runs/]").eachAttr("href");

        assertThat(recent).isNotEmpty().doesNotContain("/runs/" + pinned);
        assertThat(recent.get(0)).as("the run stored last").isEqualTo("/runs/" + runId(2 * FLOOD - 1));
        assertThat(given().get("/api/v1/home").jsonPath().getList("recentRuns.runId", String.class))
                .isNotEmpty()
                .doesNotContain(pinned.toString());
    }

    /**
     * The benchmark with counted runs (completed, valid, not retracted, with a result under a key and device) from the
     * most agents, then with the most of them, from the runs themselves.
     */
    private String benchmarkWithTheMostCountedRuns() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement("""
                        SELECT benchmark FROM proj_run r
                        WHERE status = 'completed' AND valid AND NOT retracted AND agent_id IS NOT NULL
                          AND EXISTS (SELECT 1 FROM proj_result m WHERE m.run_id = r.run_id AND m.key_id IS NOT NULL
                                      AND m.device_id IS NOT NULL AND m.mean IS NOT NULL)
                        GROUP BY benchmark ORDER BY count(DISTINCT agent_id) DESC, count(*) DESC, benchmark LIMIT 1""");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static List<String> beforeTheFlood(List<String> names) {
        return names.stream().takeWhile(n -> !n.startsWith(PREFIX)).toList();
    }

    private static Document page(String path) {
        return Jsoup.parse(given().get(path).then().statusCode(200).extract().asString());
    }

    private static ComparisonKey key(String benchmark, String version) {
        return new ComparisonKey(
                benchmark,
                version,
                "training",
                "flood-model",
                "fp32",
                1,
                1,
                null,
                new TreeMap<>(Map.of("dataloader_num_workers", "0")));
    }

    private static UUID runId(int i) {
        return new UUID(0x0193a0c000007000L, 0x8000000000f00000L + i);
    }

    private void addKey(PreparedStatement ps, ComparisonKey k) throws SQLException {
        floodKeys.add(k.id());
        try {
            add(ps, k.id(), k.benchmark(), k.canonical(), JSON.writeValueAsString(k.dimensions()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void addRun(
            PreparedStatement ps, UUID runId, ComparisonKey k, String device, Timestamp startedAt, long position)
            throws SQLException {
        add(ps, runId, "run/" + runId, AGENT, k.benchmark(), k.id(), device, startedAt, position, position);
    }

    private static void add(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            ps.setObject(i + 1, params[i]);
        }
        ps.addBatch();
    }

    private static void update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    private long count(String sql, Object... params) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
