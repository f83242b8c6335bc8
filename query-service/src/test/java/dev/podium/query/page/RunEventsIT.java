package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.data.Queries;
import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * A run page lists its events from the summaries ingest keeps (proj_run_event), the first {@link Queries#MAX_EVENTS} of
 * however many the run has, and says how many it shows of how many; it never reads the event store.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class RunEventsIT {

    private static final int EVENTS = Queries.MAX_EVENTS + 37;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @Test
    void aRunWithMoreEventsThanAPageShowsListsTheFirstAndSaysHowManyOfHowMany() throws SQLException {
        UUID run = UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO proj_run (run_id, stream_id, status, device_id, started_at, last_position)
                    VALUES (?, ?, 'running', ?, '2026-11-21T09:00:00Z', 1)""")) {
                ps.setObject(1, run);
                ps.setString(2, "run/" + run);
                ps.setString(3, SeedData.H200);
                ps.executeUpdate();
            }
            // Inserted last seq first: the page orders by seq, not by how the rows were stored.
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO proj_run_event (run_id, seq, position, type, schema_version, writer, occurred_at,
                                                recorded_at, summary)
                    SELECT ?, n, 1000000 + n, 'MetricSampled', 1, 'agent-x', '2026-11-21T09:00:00Z',
                           '2026-11-21T09:00:01Z', 'POWER in W: 10000 samples, t ' || (n * 2500) || '.0-' || (n * 2500 + 2499) || '.75 s'
                    FROM generate_series(?, 1, -1) n""")) {
                ps.setObject(1, run);
                ps.setInt(2, EVENTS);
                ps.executeUpdate();
            }
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO proj_run_event_count (run_id, events) VALUES (?, ?)")) {
                ps.setObject(1, run);
                ps.setLong(2, EVENTS);
                ps.executeUpdate();
            }
        }

        Document doc = Jsoup.parse(given().when()
                .get("/runs/" + run)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(doc.selectFirst("#events-shown").text())
                .isEqualTo(
                        "Showing " + Queries.MAX_EVENTS + " of " + EVENTS + " events: the first by sequence number.");
        assertThat(doc.select("#events tbody tr")).hasSize(Queries.MAX_EVENTS);
        assertThat(doc.select("#events tbody tr td:nth-child(1)").first().text())
                .isEqualTo("1");
        assertThat(doc.select("#events tbody tr td:nth-child(1)").last().text())
                .isEqualTo(String.valueOf(Queries.MAX_EVENTS));
        assertThat(doc.select("#events tbody tr td.summary").first().text())
                .isEqualTo("POWER in W: 10000 samples, t 2500.0-4999.75 s");
        assertThat(doc.select("#events thead th").eachText())
                .contains("Summary")
                .doesNotContain("Payload");

        JsonPath json = given().when()
                .get("/api/v1/runs/" + run)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getList("events")).hasSize(Queries.MAX_EVENTS);
        assertThat(json.getLong("eventCount")).isEqualTo(EVENTS);
        assertThat(json.getString("events[0].summary")).startsWith("POWER in W: 10000 samples");
    }

    @Test
    void aRunWithFewEventsSaysItShowsThemAll() {
        Document doc = Jsoup.parse(given().when()
                .get("/runs/" + SeedData.RUN_A)
                .then()
                .statusCode(200)
                .extract()
                .asString());
        assertThat(doc.selectFirst("#events-shown").text()).isEqualTo("Showing 3 of 3 events.");
        assertThat(doc.select("#events tbody tr td.summary").eachText())
                .containsExactly(
                        SeedData.measuredKey("0").benchmark() + ", key "
                                + SeedData.measuredKey("0").label() + "; devices " + SeedData.H200
                                + " ×1; 3 repetitions; note ok",
                        "STEP_THROUGHPUT in ok: 60 samples, t 0.0-590.0 s",
                        "1 metrics: train_samples_per_second; 2 of 2 checks passed; 600.0 s");
    }

    /**
     * With the event store closed to query-service's role, the run page still lists every event: it reads no payload
     * (nor any other column) of the event store, whose payloads of up to 1 MiB PostgreSQL would read whole.
     */
    @Test
    void theRunPageListsEventsWithoutReadingTheEventStore() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("REVOKE SELECT ON event_store FROM " + PostgresDatabase.READ_ROLE);
            try {
                Document doc = Jsoup.parse(given().when()
                        .get("/runs/" + SeedData.RUN_A)
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString());
                assertThat(doc.select("#events tbody tr td:nth-child(2)").eachText())
                        .containsExactly("RunStarted v1", "MetricSampled v1", "RunCompleted v1");
                given().when().get("/api/v1/runs/" + SeedData.RUN_A).then().statusCode(200);
            } finally {
                s.execute("GRANT SELECT ON event_store TO " + PostgresDatabase.READ_ROLE);
            }
        }
    }
}
