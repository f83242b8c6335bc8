package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.ComparisonKey;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.PublishedSeeds;
import dev.podium.query.view.Links;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
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

/**
 * An enrolled agent that lies within its quotas: it completes counted runs of a benchmark of its own on 16 devices it
 * named, of a key of its own on 8, more devices than anything real, and of a metric of its own on 2. Two other agents
 * measured a benchmark once each on one device, a key of a third benchmark beside the lone agent's key, and a metric of a
 * fourth beside the lone agent's metric. Lists rank by counted runs from distinct agents, so neither the lone agent's
 * benchmark, nor its key, nor its metric, nor its devices come first, and neither its benchmark nor its metric is what a
 * page shows when none is named. The rows ingest writes for these runs (run, result, leaderboard rows, and the
 * functions it calls for the rest) are added before each test and removed after it.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class RankByAgentsIT {

    static final String LONE_AGENT = "agent-lone";
    static final List<String> TWO_AGENTS = List.of("agent-one", "agent-two");
    /** The lone agent's benchmark, named to sort before every other. */
    static final String LONE = "aa-lone-agent";
    /** Measured by two agents, once each, on one device. */
    static final String SHARED = "zz-two-agents";
    /** Its keys: one of the lone agent's on 8 devices, one of the two agents' on one. */
    static final String KEYS = "zz-keys-of-both";

    static final String SHARED_DEVICE = "zz-shared-device";
    static final String METRIC = PublishedSeeds.METRIC;
    static final long POSITION = 2_000_000;

    static final ComparisonKey LONE_KEY = key(LONE, "0");
    static final ComparisonKey SHARED_KEY = key(SHARED, "0");
    /** Sorts before {@link #TWO_AGENTS_KEY} by canonical text too. */
    static final ComparisonKey LONE_AGENTS_KEY = key(KEYS, "0");

    static final ComparisonKey TWO_AGENTS_KEY = key(KEYS, "1");

    /** Its metrics: {@link #METRIC} from the two agents on one device, one of the lone agent's own on two. */
    static final String METRICS = "zz-metrics";

    static final ComparisonKey METRICS_KEY = key(METRICS, "0");
    /** Named like a throughput, to sort first. */
    static final String LONE_METRIC = "aa_lone_samples_per_second";
    /** Of runs that all failed a check: in the all-runs rows alone. */
    static final String FAILING_METRIC = "failing_samples_per_second";

    private static final ObjectMapper JSON = EventCodec.newMapper();

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    private final List<UUID> runs = new ArrayList<>();

    @BeforeEach
    void measure() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            c.setAutoCommit(false);
            for (String b : List.of(LONE, SHARED, KEYS, METRICS)) {
                update(c, "INSERT INTO proj_benchmark (benchmark, last_position) VALUES (?, ?)", b, POSITION);
            }
            for (ComparisonKey k : List.of(LONE_KEY, SHARED_KEY, LONE_AGENTS_KEY, TWO_AGENTS_KEY, METRICS_KEY)) {
                update(
                        c,
                        "INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions) VALUES (?, ?, ?, ?::jsonb)",
                        k.id(),
                        k.benchmark(),
                        k.canonical(),
                        json(k.dimensions()));
            }
            for (String d : devices()) {
                update(
                        c,
                        "INSERT INTO proj_device (device_id, vendor, label, last_position) VALUES (?, NULL, ?, ?)",
                        d,
                        d,
                        POSITION);
            }
            for (int i = 0; i < 16; i++) {
                counted(c, LONE_AGENT, LONE_KEY, loneDevice(i), 1);
            }
            for (int i = 0; i < 8; i++) {
                counted(c, LONE_AGENT, LONE_AGENTS_KEY, loneDevice(i), 1);
            }
            for (int i = 0; i < 2; i++) {
                counted(c, LONE_AGENT, METRICS_KEY, loneDevice(i), 1, LONE_METRIC);
            }
            update(
                    c,
                    "INSERT INTO proj_leaderboard_all_runs_row (key_id, metric, device_id, benchmark, unit, direction, runs, "
                            + "n, mean, failing) VALUES (?, ?, ?, ?, 'samples/s', 'HIGHER_IS_BETTER', 1, 3, 50, 1)",
                    METRICS_KEY.id(),
                    FAILING_METRIC,
                    SHARED_DEVICE,
                    METRICS);
            for (String agent : TWO_AGENTS) {
                counted(c, agent, SHARED_KEY, SHARED_DEVICE, 2);
                counted(c, agent, TWO_AGENTS_KEY, SHARED_DEVICE, 2);
                counted(c, agent, METRICS_KEY, SHARED_DEVICE, 2);
            }
            refresh(c);
            c.commit();
        }
    }

    @AfterEach
    void remove() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            c.setAutoCommit(false);
            update(c, "DELETE FROM proj_run WHERE run_id = ANY(?)", c.createArrayOf("uuid", runs.toArray()));
            update(c, "DELETE FROM proj_leaderboard_all_runs_row WHERE benchmark = ANY(?)", (Object)
                    new String[] {LONE, SHARED, KEYS, METRICS});
            update(c, "DELETE FROM proj_leaderboard_row WHERE benchmark = ANY(?)", (Object)
                    new String[] {LONE, SHARED, KEYS, METRICS});
            refresh(c);
            update(c, "DELETE FROM proj_comparison_key WHERE benchmark = ANY(?)", (Object)
                    new String[] {LONE, SHARED, KEYS, METRICS});
            update(c, "DELETE FROM proj_benchmark WHERE benchmark = ANY(?)", (Object)
                    new String[] {LONE, SHARED, KEYS, METRICS});
            update(c, "DELETE FROM proj_device WHERE device_id = ANY(?)", (Object)
                    devices().toArray(String[]::new));
            c.commit();
        }
        runs.clear();
    }

    @Test
    void aBenchmarkWithCountedRunsFromTwoAgentsRanksAboveOneAgentsOnSixteenDevices() {
        List<String> home = page("/").select(".card").get(0).select("li a").eachText();
        List<String> api = given().get("/api/v1/home").jsonPath().getList("benchmarks", String.class);
        List<String> offered =
                page("/leaderboard").select("select[name=benchmark] option").eachAttr("value");

        for (List<String> list : List.of(home, api, offered)) {
            assertThat(list).containsSubsequence(KEYS, SHARED, LONE);
        }
    }

    @Test
    void withoutABenchmarkNamedPagesShowTheOneWithCountedRunsFromTheMostAgents() {
        assertThat(given().get("/api/v1/leaderboard").jsonPath().getString("query.benchmark"))
                .isEqualTo(KEYS);
        assertThat(given().get("/api/v1/comparison").jsonPath().getString("query.benchmark"))
                .isEqualTo(KEYS);
        assertThat(page("/leaderboard")
                        .select("select[name=benchmark] option[selected]")
                        .attr("value"))
                .isEqualTo(KEYS)
                .isNotEqualTo(LONE);
    }

    @Test
    void aKeyWithCountedRunsFromTwoAgentsRanksAboveOneAgentsOnEightDevices() {
        JsonPath board = given().get("/api/v1/leaderboard?benchmark=" + KEYS)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        JsonPath benchmark = given().get("/api/v1" + Links.benchmark(KEYS))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(board.getString("query.key")).as("the key shown").isEqualTo(TWO_AGENTS_KEY.id());
        assertThat(board.getList("keys.keyId", String.class))
                .containsExactly(TWO_AGENTS_KEY.id(), LONE_AGENTS_KEY.id());
        assertThat(benchmark.getList("keys.canonical", String.class))
                .containsExactly(TWO_AGENTS_KEY.canonical(), LONE_AGENTS_KEY.canonical());
    }

    @Test
    void aDeviceWithCountedRunsFromTwoAgentsRanksAboveTheLoneAgentsDevices() {
        List<String> devices = page("/").select(".card").get(1).select("li a").eachAttr("href");

        assertThat(devices).containsSubsequence("/devices/" + SHARED_DEVICE, "/devices/" + loneDevice(0));
    }

    @Test
    void aMetricWithCountedRunsFromTwoAgentsRanksAboveOneAgentsOnMoreDevicesAndIsShownByDefault() {
        JsonPath board = json("/api/v1/leaderboard?benchmark=" + METRICS, 200);
        JsonPath comparison = json("/api/v1/comparison?benchmark=" + METRICS, 200);

        assertThat(board.getList("metrics.value", String.class)).containsExactly(METRIC, LONE_METRIC);
        assertThat(board.getString("query.metric")).isEqualTo(METRIC);
        assertThat(comparison.getString("query.metric")).isEqualTo(METRIC);
        assertThat(json("/api/v1" + Links.benchmark(METRICS), 200).getList("metrics", String.class))
                .containsExactly(METRIC, LONE_METRIC);
    }

    @Test
    void aMetricIsShownWhenNamedAndFoundBySearchAndOneThereIsNoneOfIsNotFound() {
        assertThat(json("/api/v1/leaderboard?benchmark=" + METRICS + "&metric=" + LONE_METRIC, 200)
                        .getString("query.metric"))
                .isEqualTo(LONE_METRIC);
        assertThat(json("/api/v1" + Links.benchmark(METRICS) + "?find=LONE", 200)
                        .getList("metrics", String.class))
                .containsExactly(LONE_METRIC);
        // A metric whose runs all failed a check has no counted rows, but is no stranger: its board can include them.
        json("/api/v1/leaderboard?benchmark=" + METRICS + "&metric=" + FAILING_METRIC + "&include=failing", 200);
        for (String path : List.of("/leaderboard", "/api/v1/leaderboard", "/compare", "/api/v1/comparison")) {
            given().get(path + "?benchmark=" + METRICS + "&metric=no_such_metric")
                    .then()
                    .statusCode(404);
        }
    }

    private static JsonPath json(String path, int status) {
        return given().get(path).then().statusCode(status).extract().jsonPath();
    }

    /** A completed, valid run with a result, and the measured leaderboard row it counts in (one run a row). */
    private void counted(Connection c, String agent, ComparisonKey k, String device, int runsOfTheRow)
            throws SQLException {
        counted(c, agent, k, device, runsOfTheRow, METRIC);
    }

    private void counted(Connection c, String agent, ComparisonKey k, String device, int runsOfTheRow, String metric)
            throws SQLException {
        UUID run = UUID.randomUUID();
        runs.add(run);
        long position = POSITION + runs.size();
        update(
                c,
                "INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count, "
                        + "started_at, finished_at, valid, started_position, last_position) "
                        + "VALUES (?, ?, ?, 'completed', ?, ?, ?, 1, ?, ?, true, ?, ?)",
                run,
                "run/" + run,
                agent,
                k.benchmark(),
                k.id(),
                device,
                Timestamp.from(Instant.parse("2026-11-01T00:00:00Z")),
                Timestamp.from(Instant.parse("2026-11-01T00:10:00Z")),
                position,
                position);
        update(
                c,
                "INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n, "
                        + "mean, median, stdev, min, max, ci95_low, ci95_high, cv) "
                        + "VALUES (?, ?, 'samples/s', 'HIGHER_IS_BETTER', 'SYSTEM', true, ?, ?, 3, 50, 50, 1, 49, 51, 49, 51, 0.02)",
                run,
                metric,
                k.id(),
                device);
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, "
                        + "mean, ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, ?, ?, 'measured', ?, 'samples/s', "
                        + "'HIGHER_IS_BETTER', ?, ?, 50, 49, 51, 50, 0.02, ?) ON CONFLICT DO NOTHING",
                k.id(),
                metric,
                device,
                k.benchmark(),
                runsOfTheRow,
                3 * runsOfTheRow,
                Timestamp.from(Instant.parse("2026-11-01T00:10:00Z")));
    }

    /** What ingest derives from these rows: the keys' device lists (V88) and the counted runs per agent (V101, V113). */
    private void refresh(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT podium_refresh_all_metric_keys()");
        }
        try (PreparedStatement ps =
                c.prepareStatement("SELECT podium_refresh_rank_runs(?), podium_refresh_rank_metric_runs(?)")) {
            ps.setArray(1, c.createArrayOf("uuid", runs.toArray()));
            ps.setArray(2, c.createArrayOf("uuid", runs.toArray()));
            ps.execute();
        }
    }

    private static List<String> devices() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            out.add(loneDevice(i));
        }
        out.add(SHARED_DEVICE);
        return out;
    }

    private static String loneDevice(int i) {
        return "aa-lone-device-%02d".formatted(i);
    }

    private static ComparisonKey key(String benchmark, String workers) {
        return new ComparisonKey(
                benchmark,
                "1",
                "training",
                "rank-model",
                "fp32",
                1,
                1,
                null,
                new TreeMap<>(Map.of("dataloader_num_workers", workers)));
    }

    private static Document page(String path) {
        return Jsoup.parse(given().get(path).then().statusCode(200).extract().asString());
    }

    private static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
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
