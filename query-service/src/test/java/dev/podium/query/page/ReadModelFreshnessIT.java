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
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Leaderboards and comparisons read the read models on every request, nothing kept between requests: what ingest
 * committed shows on the next request, in whatever order writers commit, even a change that no event came with.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class ReadModelFreshnessIT {

    private static final String BENCHMARK = "freshness-check";
    private static final String GAUDI2 = "intel-gaudi2";

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    private static ComparisonKey key(String workers) {
        return new ComparisonKey(
                BENCHMARK,
                "1",
                "training",
                "model-f",
                "bf16",
                8,
                1,
                null,
                new TreeMap<>(Map.of("dataloader_num_workers", workers)));
    }

    @Test
    void committedResultsShowOnTheNextRequest() throws SQLException {
        String w0 = key("0").id();
        seed();
        assertLeaderboard(w0, List.of("100.0"));
        assertThat(matrixCells(SeedData.H200)).containsExactly("100.0 1.00×", "150.0 1.00×");

        // Changed without an event, as no writer does: nothing was kept from the requests before.
        ingestWithoutEvent(c -> update(
                c,
                "UPDATE proj_leaderboard_row SET mean = 110.0 WHERE key_id = ? AND device_id = ?",
                w0,
                SeedData.H200));
        assertLeaderboard(w0, List.of("110.0"));

        // A run completes: ingest recomputes the rows and appends the event in one transaction.
        ingest(c -> {
            update(
                    c,
                    "UPDATE proj_leaderboard_row SET mean = 120.0 WHERE key_id = ? AND device_id = ?",
                    w0,
                    SeedData.H200);
            row(c, w0, GAUDI2, 240.0);
            row(c, key("1").id(), GAUDI2, 300.0);
        });
        assertLeaderboard(w0, List.of("240.0", "120.0"));
        assertThat(matrixCells(GAUDI2)).containsExactly("240.0 2.00×", "300.0 2.00×");
    }

    @Test
    void aWriterThatCommitsAfterOneWithAGreaterPositionIsSeenToo() throws SQLException {
        String w0 = key("0").id();
        seed();
        assertLeaderboard(w0, List.of("100.0"));

        // The slow writer takes its position first; another appends after it and commits first.
        long slow = position();
        ingest(c -> row(c, w0, GAUDI2, 240.0));
        assertLeaderboard(w0, List.of("240.0", "100.0"));
        transaction(c -> {
            update(
                    c,
                    "UPDATE proj_leaderboard_row SET mean = 300.0 WHERE key_id = ? AND device_id = ?",
                    w0,
                    SeedData.H200);
            event(c, slow);
        });

        assertLeaderboard(w0, List.of("300.0", "240.0"));
    }

    @Test
    void aRunFailingAValidityCheckIsCountedOnTheNextRequest() throws SQLException {
        String w0 = key("0").id();
        seed();
        assertLeaderboard(w0, List.of("100.0"));
        assertThat(validityNote(w0)).contains("Runs that fail a validity check are left out");

        ingest(c -> failingRun(c, w0, SeedData.H200, 90.0));

        assertThat(validityNote(w0)).contains("1 run(s) that failed a validity check are left out");
        assertThat(leaderboardMeans(w0)).containsExactly("100.0");
    }

    @Test
    void everyCellOfALeaderboardRowChangesWhenItsResultsDo() throws SQLException {
        String w0 = key("0").id();
        seed();
        assertLeaderboard(w0, List.of("100.0"));
        assertThat(leaderboardCells(w0, SeedData.H200))
                .containsExactly("measured", "1", "3", "100.0", "—", "100.0", "—");

        ingest(c -> update(
                c,
                "UPDATE proj_leaderboard_row SET runs = 3, n = 9, mean = 120.0, ci95_low = 110.0, ci95_high = 130.0, "
                        + "best = 125.0, cv = 0.05 WHERE key_id = ? AND device_id = ?",
                w0,
                SeedData.H200));

        assertThat(leaderboardCells(w0, SeedData.H200))
                .containsExactly("measured", "3", "9", "120.0", "± 10.00", "125.0", "5.0%");
    }

    @Test
    void theSoftwareFilteredLeaderboardCountsARunOnTheNextRequest() throws SQLException {
        String w0 = key("0").id();
        seed();
        ingest(c -> run(c, w0, SeedData.H200, "2.4.0", 100.0));
        assertThat(leaderboardCells(w0 + "&software=2.4.0", SeedData.H200))
                .containsExactly("measured", "1", "3", "100.0", "—", "100.0", "—");

        ingest(c -> {
            run(c, w0, SeedData.H200, "2.4.0", 110.0);
            run(c, w0, SeedData.H200, "2.5.1", 500.0);
        });

        assertThat(leaderboardCells(w0 + "&software=2.4.0", SeedData.H200).subList(0, 6))
                .containsExactly("measured", "2", "6", "105.0", "± 63.53", "110.0");
        assertThat(leaderboardMeans(w0 + "&software=2.5.1")).containsExactly("500.0");
        assertThat(leaderboardMeans(w0)).containsExactly("100.0");
    }

    @Test
    void hostileDeviceIdsIngestedLaterShowAsText() throws SQLException {
        String w0 = key("0").id();
        seed();
        assertLeaderboard(w0, List.of("100.0"));

        ingest(c -> {
            row(c, w0, SeedData.XSS_SCRIPT, 200.0);
            row(c, w0, SeedData.XSS_IMG, 300.0);
        });
        assertLeaderboard(w0, List.of("300.0", "200.0", "100.0"));

        // The same rows under another sort and filter, and once more as first asked.
        for (String query : List.of(w0, w0 + "&sort=device&dir=asc", w0 + "&source=measured&sort=best&dir=asc", w0)) {
            Document doc = Jsoup.parse(given().when()
                    .get("/leaderboard?benchmark=" + BENCHMARK + "&key=" + query)
                    .then()
                    .statusCode(200)
                    .extract()
                    .asString());
            Element table = doc.selectFirst("#leaderboard");
            assertThat(table.select("script, img, [onerror]")).isEmpty();
            assertThat(table.select("tbody tr td:eq(1)").eachText())
                    .as("shown as text, and marked as ids the alias table does not know")
                    .containsExactlyInAnyOrder(
                            SeedData.XSS_IMG + " unknown device",
                            SeedData.XSS_SCRIPT + " unknown device",
                            Labels.device(SeedData.H200));
            assertThat(table.select("tbody tr td:eq(1) a").eachAttr("href"))
                    .allMatch(h -> h.matches("/devices/[A-Za-z0-9%._*-]+"));
            assertThat(table.select("td.history a").eachAttr("href"))
                    .allMatch(h -> h.startsWith("/history?key=" + w0 + "&metric=throughput&device="))
                    .noneMatch(h -> h.contains("<") || h.contains("\""));
        }
    }

    private void seed() throws SQLException {
        ingest(c -> {
            update(c, "INSERT INTO proj_benchmark (benchmark, last_position) VALUES (?, 1)", BENCHMARK);
            for (String workers : List.of("0", "1")) {
                ComparisonKey k = key(workers);
                update(
                        c,
                        "INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions) VALUES (?, ?, ?, ?::jsonb)",
                        k.id(),
                        BENCHMARK,
                        k.canonical(),
                        "{\"benchmark\": \"" + BENCHMARK + "\", \"benchmark_version\": \"1\", "
                                + "\"scenario\": \"training\", \"model\": \"model-f\", \"precision\": \"bf16\", \"per_device_batch_size\": \"8\", "
                                + "\"total_accelerators\": \"1\", \"dataloader_num_workers\": \"" + workers + "\"}");
            }
            row(c, key("0").id(), SeedData.H200, 100.0);
            row(c, key("1").id(), SeedData.H200, 150.0);
        });
    }

    @AfterEach
    void removeTheBenchmark() throws SQLException {
        ingest(c -> {
            update(
                    c,
                    "DELETE FROM proj_result WHERE run_id IN (SELECT run_id FROM proj_run WHERE benchmark = ?)",
                    BENCHMARK);
            update(c, "DELETE FROM proj_run WHERE benchmark = ?", BENCHMARK);
            update(c, "DELETE FROM proj_leaderboard_row WHERE benchmark = ?", BENCHMARK);
            for (String cells :
                    List.of("proj_comparison_cell", "proj_leaderboard_version_row", "proj_leaderboard_all_runs_row")) {
                update(
                        c,
                        "DELETE FROM " + cells
                                + " WHERE key_id IN (SELECT key_id FROM proj_comparison_key WHERE benchmark = ?)",
                        BENCHMARK);
            }
            update(c, "DELETE FROM proj_comparison_key WHERE benchmark = ?", BENCHMARK);
            update(c, "DELETE FROM proj_benchmark WHERE benchmark = ?", BENCHMARK);
        });
        assertThat(given().when().get("/leaderboard").then().extract().asString())
                .doesNotContain(BENCHMARK);
    }

    private static void assertLeaderboard(String keyId, List<String> means) {
        assertThat(leaderboardMeans(keyId)).isEqualTo(means);
    }

    private static List<String> leaderboardMeans(String keyId) {
        Document doc = Jsoup.parse(given().when()
                .get("/leaderboard?benchmark=" + BENCHMARK + "&key=" + keyId)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        return doc.select("#leaderboard td.mean").eachText();
    }

    /** The cells of the device's row but its rank and the extras: device, source, runs, n, mean, CI95, best, CV. */
    private static List<String> leaderboardCells(String keyQuery, String deviceId) {
        Document doc = Jsoup.parse(given().when()
                .get("/leaderboard?benchmark=" + BENCHMARK + "&key=" + keyQuery)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        Element row = doc.select("#leaderboard tbody tr").stream()
                .filter(r -> r.child(1).selectFirst("a").attr("href").equals("/devices/" + deviceId))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + deviceId + " in "
                        + doc.select("#leaderboard").text()));
        return row.children().subList(2, 9).stream().map(Element::text).toList();
    }

    private static String validityNote(String keyId) {
        return Jsoup.parse(given().when()
                        .get("/leaderboard?benchmark=" + BENCHMARK + "&key=" + keyId)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString())
                .select("#validity-note")
                .text();
    }

    private static List<String> matrixCells(String deviceId) {
        Document doc = Jsoup.parse(given().when()
                .get("/compare?benchmark=" + BENCHMARK + "&baseline=" + SeedData.H200)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        Element row = doc.select("#matrix tbody tr").stream()
                .filter(r -> r.child(0).selectFirst("a").attr("href").equals("/devices/" + deviceId))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + deviceId + " in "
                        + doc.select("#matrix").text()));
        return row.select("td.cell").eachText();
    }

    private interface Work {
        void run(Connection c) throws SQLException;
    }

    /** Changes projection rows and appends an event in one transaction, as ingest does. */
    private void ingest(Work work) throws SQLException {
        transaction(c -> {
            work.run(c);
            event(c, null);
        });
    }

    /** Appends an event, at the given position (one taken earlier from the store's sequence) or the next one. */
    private static void event(Connection c, Long position) throws SQLException {
        UUID run = UUID.randomUUID();
        update(
                c,
                "INSERT INTO event_store (" + (position == null ? "" : "position, ")
                        + "event_id, stream_id, seq, type, schema_version, "
                        + "writer, occurred_at, payload, payload_hash) "
                        + (position == null ? "" : "OVERRIDING SYSTEM VALUE ")
                        + "VALUES (" + (position == null ? "" : position + ", ")
                        + "?, ?, 1, 'RunCompleted', 1, 'agent-freshness', now(), ?::jsonb, 'h')",
                UUID.randomUUID(),
                "run/" + run,
                "{\"run_id\": \"" + run + "\"}");
    }

    /** Takes the next position of the event store, as an insert does when it starts. */
    private long position() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                var rs = c.createStatement()
                        .executeQuery("SELECT nextval(pg_get_serial_sequence('event_store', 'position'))")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void ingestWithoutEvent(Work work) throws SQLException {
        transaction(work);
    }

    private void transaction(Work work) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            c.setAutoCommit(false);
            work.run(c);
            SeedData.refreshPageCells(c);
            c.commit();
        }
    }

    private static void row(Connection c, String keyId, String deviceId, double mean) throws SQLException {
        update(
                c,
                "INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n, mean, "
                        + "ci95_low, ci95_high, best, cv, last_run_at) VALUES (?, 'throughput', ?, 'measured', ?, 'samples/s', 'HIGHER_IS_BETTER', "
                        + "1, 3, ?, ?, ?, ?, 0, now())",
                keyId,
                deviceId,
                BENCHMARK,
                mean,
                mean,
                mean,
                mean);
    }

    /** A valid completed run with one framework version and one result of three repetitions around {@code mean}. */
    private static void run(Connection c, String keyId, String deviceId, String frameworkVersion, double mean)
            throws SQLException {
        UUID run = UUID.randomUUID();
        update(
                c,
                "INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count, software, started_at, "
                        + "finished_at, duration_seconds, validity, valid, started_position, last_position) VALUES (?, ?, 'agent-freshness', 'completed', "
                        + "?, ?, ?, 1, ?::jsonb, now(), now(), 600, '[]'::jsonb, true, 1, 3)",
                run,
                "run/" + run,
                BENCHMARK,
                keyId,
                deviceId,
                "{\"framework\": \"pytorch\", \"framework_version\": \"" + frameworkVersion + "\"}");
        update(
                c,
                "INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n, mean, median, stdev, "
                        + "min, max, ci95_low, ci95_high, cv, raw_values) VALUES (?, 'throughput', 'samples/s', 'HIGHER_IS_BETTER', 'SYSTEM', true, ?, ?, "
                        + "3, ?, ?, 1, ?, ?, ?, ?, 0.01, ?)",
                run,
                keyId,
                deviceId,
                mean,
                mean,
                mean - 1,
                mean + 1,
                mean - 2,
                mean + 2,
                c.createArrayOf("float8", new Double[] {mean - 1, mean, mean + 1}));
    }

    /** A completed run that failed its CV check, with one result: leaderboards leave it out and count it. */
    private static void failingRun(Connection c, String keyId, String deviceId, double mean) throws SQLException {
        UUID run = UUID.randomUUID();
        update(
                c,
                "INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count, software, started_at, "
                        + "finished_at, duration_seconds, validity, valid, started_position, last_position) VALUES (?, ?, 'agent-freshness', 'completed', "
                        + "?, ?, ?, 1, '{}'::jsonb, now(), now(), 600, ?::jsonb, false, 1, 3)",
                run,
                "run/" + run,
                BENCHMARK,
                keyId,
                deviceId,
                "[{\"name\": \"cv_below_10pct\", \"passed\": false, \"detail\": \"cv 12.0%\"}]");
        update(
                c,
                "INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n, mean, median, stdev, "
                        + "min, max, ci95_low, ci95_high, cv, raw_values) VALUES (?, 'throughput', 'samples/s', 'HIGHER_IS_BETTER', 'SYSTEM', true, ?, ?, "
                        + "3, ?, ?, 0, ?, ?, ?, ?, 0.12, ?)",
                run,
                keyId,
                deviceId,
                mean,
                mean,
                mean,
                mean,
                mean,
                mean,
                c.createArrayOf("float8", new Double[] {mean, mean, mean}));
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
