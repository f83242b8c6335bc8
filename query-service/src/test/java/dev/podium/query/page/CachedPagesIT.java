package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.model.ComparisonKey;
import dev.podium.events.store.PageChannel;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With the cache on, a rendered page is kept until ingest announces (on {@link PageChannel}, in the batch's
 * transaction) that its benchmark changed; then only that benchmark's pages are rendered again.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
@TestProfile(CachedPagesIT.CacheOn.class)
class CachedPagesIT {

    public static class CacheOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("podium.query.cache.enabled", "true");
        }
    }

    private static final Duration HEARD_WITHIN = Duration.ofSeconds(30);

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @Inject
    PageCache cache;

    private String a;
    private String b;

    @BeforeEach
    void twoBenchmarks() throws SQLException {
        String suffix = Long.toString(System.nanoTime(), 36);
        a = "cache-a-" + suffix;
        b = "cache-b-" + suffix;
        await().atMost(HEARD_WITHIN).until(() -> cache.changesHeard() > 0);
        long heard = cache.changesHeard();
        transaction(c -> {
            benchmark(c, a, 100.0);
            benchmark(c, b, 200.0);
            announce(c, PageChannel.ALL);
        });
        await().atMost(HEARD_WITHIN).until(() -> cache.changesHeard() > heard);
        await().atMost(HEARD_WITHIN).until(() -> means(a).equals(List.of("100.0")));
        await().atMost(HEARD_WITHIN).until(() -> means(b).equals(List.of("200.0")));
        assertThat(compareCells(a)).containsExactly("100.0 1.00×");
    }

    @Test
    void aPageIsKeptUntilItsBenchmarkIsAnnounced() throws SQLException {
        transaction(c -> {
            mean(c, a, 110.0);
            mean(c, b, 210.0);
        });
        assertThat(means(a)).as("kept: nothing announced").containsExactly("100.0");
        assertThat(compareCells(a)).containsExactly("100.0 1.00×");

        transaction(c -> announce(c, a));

        await().atMost(HEARD_WITHIN).until(() -> means(a).equals(List.of("110.0")));
        assertThat(compareCells(a)).containsExactly("110.0 1.00×");
        assertThat(means(b)).as("another benchmark's page stays").containsExactly("200.0");

        transaction(c -> announce(c, PageChannel.ALL));
        await().atMost(HEARD_WITHIN).until(() -> means(b).equals(List.of("210.0")));
    }

    @Test
    void aRolledBackBatchDropsNothing() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            c.setAutoCommit(false);
            mean(c, a, 999.0);
            announce(c, a);
            c.rollback();
        }
        transaction(c -> mean(c, a, 120.0));
        // A later announcement of the other benchmark is heard, so the rolled-back one would have been too.
        transaction(c -> {
            mean(c, b, 220.0);
            announce(c, b);
        });
        await().atMost(HEARD_WITHIN).until(() -> means(b).equals(List.of("220.0")));
        assertThat(means(a)).containsExactly("100.0");
    }

    @Test
    void aLostListeningConnectionDropsEveryPageAndListensAgain() throws SQLException {
        transaction(c -> mean(c, a, 130.0));
        assertThat(means(a)).as("kept: nothing announced").containsExactly("100.0");

        long heard = cache.changesHeard();
        assertThat(terminateListeners()).isEqualTo(1);
        // Losing the connection and listening again each count as a change: every page kept before is gone.
        await().atMost(HEARD_WITHIN).until(() -> cache.changesHeard() >= heard + 2 && cache.isListening());
        assertThat(means(a)).containsExactly("130.0");

        transaction(c -> mean(c, a, 140.0));
        assertThat(means(a)).as("kept again: listening again").containsExactly("130.0");
    }

    @Test
    void aRunPageIsKeptUntilItsRunIsAnnounced() throws SQLException {
        UUID run = UUID.randomUUID();
        transaction(c -> copyRun(c, SeedData.RUN_A, run, a));
        assertThat(agentOnPage(run)).isEqualTo("agent-h200-a");
        assertThat(agentInJson(run)).isEqualTo("agent-h200-a");

        transaction(c -> update(c, "UPDATE proj_run SET agent_id = 'agent-after' WHERE run_id = ?", run));
        heardAfter(c -> announce(c, b));
        heardAfter(c -> announce(c, PageChannel.run(UUID.randomUUID())));
        assertThat(agentOnPage(run)).as("kept: its run not announced").isEqualTo("agent-h200-a");
        assertThat(agentInJson(run)).as("kept: its run not announced").isEqualTo("agent-h200-a");

        transaction(c -> announce(c, PageChannel.run(run)));
        await().atMost(HEARD_WITHIN).until(() -> agentOnPage(run).equals("agent-after"));
        assertThat(agentInJson(run)).isEqualTo("agent-after");
    }

    @Test
    void aHistoryIsKeptUntilItsBenchmarkIsAnnounced() throws SQLException {
        UUID run = UUID.randomUUID();
        transaction(c -> copyRun(c, SeedData.RUN_A, run, a));
        String history =
                "/history?key=" + key(a).id() + "&metric=" + metricOf(SeedData.RUN_A) + "&device=" + SeedData.H200;
        assertThat(canonicalOn(history)).isEqualTo(key(a).canonical());

        transaction(
                c -> update(c, "UPDATE proj_comparison_key SET canonical = 'renamed' WHERE key_id = ?", key(a).id()));
        heardAfter(c -> announce(c, b));
        heardAfter(c -> announce(c, PageChannel.STEPS));
        assertThat(canonicalOn(history)).as("kept: its benchmark not announced").isEqualTo(key(a).canonical());

        transaction(c -> announce(c, a));
        await().atMost(HEARD_WITHIN).until(() -> canonicalOn(history).equals("renamed"));
    }

    @Test
    void theRegressionsAreKeptUntilARoundOfStepsIsAnnounced() throws SQLException {
        transaction(c -> searched(c, 41));
        heardAfter(c -> announce(c, PageChannel.STEPS));
        assertThat(searchedOnRegressions()).startsWith("41 histories");

        transaction(c -> searched(c, 42));
        heardAfter(c -> announce(c, a));
        assertThat(searchedOnRegressions()).as("kept: no round announced").startsWith("41 histories");

        transaction(c -> announce(c, PageChannel.STEPS));
        await().atMost(HEARD_WITHIN).until(() -> searchedOnRegressions().startsWith("42 histories"));
    }

    private static String agentOnPage(UUID run) {
        return page("/runs/" + run).select("span.agent").text();
    }

    /** Ends the listening connections to the test's database, as a restart or a network fault would; how many. */
    private int terminateListeners() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement("""
                        SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
                        WHERE datname = current_database() AND query = 'LISTEN ' || ?""")) {
            ps.setString(1, PageChannel.NAME);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static String agentInJson(UUID run) {
        return given().get("/api/v1/runs/" + run)
                .then()
                .statusCode(200)
                .contentType("application/json")
                .extract()
                .path("run.agentId");
    }

    private static String canonicalOn(String history) {
        return page(history).select("p.canonical code").text();
    }

    private static String searchedOnRegressions() {
        return page("/regressions").select("p.meta").text();
    }

    private static Document page(String path) {
        return Jsoup.parse(given().get(path).then().statusCode(200).extract().asString());
    }

    /** A copy of {@code from} (its run row and results) as {@code run}, under {@code benchmark}'s key. */
    private static void copyRun(Connection c, UUID from, UUID run, String benchmark) throws SQLException {
        String keyId = key(benchmark).id();
        copyRows(
                c,
                "proj_run",
                from,
                Map.of("run_id", run, "stream_id", "run/" + run, "benchmark", benchmark, "key_id", keyId));
        copyRows(c, "proj_result", from, Map.of("run_id", run, "key_id", keyId));
    }

    /** Inserts a copy of {@code table}'s rows of run {@code from} with the values {@code set}, its stored columns only. */
    private static void copyRows(Connection c, String table, UUID from, Map<String, Object> set) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT column_name FROM information_schema.columns "
                + "WHERE table_name = ? AND is_generated = 'NEVER' ORDER BY ordinal_position")) {
            ps.setString(1, table);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
        }
        List<Object> args = new ArrayList<>();
        StringBuilder select = new StringBuilder();
        for (String column : columns) {
            select.append(select.length() == 0 ? "" : ", ");
            if (set.containsKey(column)) {
                select.append("?");
                args.add(set.get(column));
            } else {
                select.append(column);
            }
        }
        args.add(from);
        update(
                c,
                "INSERT INTO " + table + " (" + String.join(", ", columns) + ") SELECT " + select + " FROM " + table
                        + " WHERE run_id = ?",
                args.toArray());
    }

    private String metricOf(UUID run) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement("SELECT min(metric) FROM proj_result WHERE run_id = ?")) {
            ps.setObject(1, run);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static void searched(Connection c, int histories) throws SQLException {
        update(
                c,
                "INSERT INTO history_state (id, position, updated_at, method, histories, points) VALUES (1, 0, now(), 'm', ?, 0) "
                        + "ON CONFLICT (id) DO UPDATE SET histories = excluded.histories",
                histories);
    }

    /** Runs {@code work}, then waits until the listener heard the change it announced. */
    private void heardAfter(Work work) throws SQLException {
        long heard = cache.changesHeard();
        transaction(work);
        await().atMost(HEARD_WITHIN).until(() -> cache.changesHeard() > heard);
    }

    private static List<String> means(String benchmark) {
        return Jsoup.parse(given().get("/leaderboard?benchmark=" + benchmark)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .select("#leaderboard td.mean")
                .eachText();
    }

    private static List<String> compareCells(String benchmark) {
        return Jsoup.parse(given().get("/compare?benchmark=" + benchmark + "&baseline=" + SeedData.H200)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .select("#matrix tbody tr td.cell")
                .eachText();
    }

    private static ComparisonKey key(String benchmark) {
        return new ComparisonKey(
                benchmark,
                "1",
                "training",
                "model-c",
                "bf16",
                8,
                1,
                null,
                new TreeMap<>(Map.of("dataloader_num_workers", "0")));
    }

    private static void benchmark(Connection c, String benchmark, double mean) throws SQLException {
        ComparisonKey k = key(benchmark);
        update(c, "INSERT INTO proj_benchmark (benchmark, last_position) VALUES (?, 1)", benchmark);
        update(
                c,
                "INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions) VALUES (?, ?, ?, ?::jsonb)",
                k.id(),
                benchmark,
                k.canonical(),
                "{\"benchmark\": \"" + benchmark + "\", \"dataloader_num_workers\": \"0\"}");
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, "
                        + "mean, ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, 'throughput', ?, 'measured', ?, "
                        + "'samples/s', 'HIGHER_IS_BETTER', 1, 3, ?, ?, ?, ?, 0, now())",
                k.id(),
                SeedData.H200,
                benchmark,
                mean,
                mean,
                mean,
                mean);
        SeedData.refreshPageCells(c);
    }

    private static void mean(Connection c, String benchmark, double mean) throws SQLException {
        update(c, "UPDATE proj_leaderboard_row SET mean = ? WHERE benchmark = ?", mean, benchmark);
        SeedData.refreshPageCells(c);
    }

    private static void announce(Connection c, String benchmark) throws SQLException {
        update(c, "SELECT pg_notify(?, ?)", PageChannel.NAME, benchmark);
    }

    private interface Work {
        void run(Connection c) throws SQLException;
    }

    private void transaction(Work work) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            c.setAutoCommit(false);
            work.run(c);
            c.commit();
        }
    }

    private static void update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            ps.execute();
        }
    }
}
