package dev.podium.query.page;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.startsWith;

import dev.podium.query.support.PostgresDatabase;
import dev.podium.query.support.SeedData;
import dev.podium.query.view.RunEvents;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * A run page lists its events from the summaries ingest keeps (proj_run_event), {@link RunEvents#PER_PAGE} at a time by
 * sequence number with a link to the next ones, and says which it shows of how many; it never reads the event store.
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class RunEventsIT {

    private static final int EVENTS = 2 * RunEvents.PER_PAGE + 37;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @Test
    void aRunWithMoreEventsThanAPageListsThemAPageAtATimeAndSaysWhichOfHowMany() throws SQLException {
        UUID run = runWithEvents(EVENTS);

        Document first = page("/runs/" + run);
        assertThat(first.selectFirst("#events-shown").text())
                .isEqualTo("Showing events 1 to 100, 100 of " + EVENTS + " by sequence number.");
        assertThat(seqs(first)).hasSize(RunEvents.PER_PAGE).startsWith("1").endsWith("100");
        assertThat(first.select("#events tbody tr td.summary").first().text())
                .isEqualTo("POWER in W: 10000 samples, t 2500.0-4999.75 s");
        assertThat(first.select("#events thead th").eachText())
                .contains("Summary")
                .doesNotContain("Payload");
        assertThat(first.select("#events-paging a[rel=first]")).isEmpty();
        String next = first.selectFirst("#events-paging a[rel=next]").attr("href");
        assertThat(next).isEqualTo("/runs/" + run + "?after=100#events");

        Document second = page(next.replace("#events", ""));
        assertThat(seqs(second)).hasSize(RunEvents.PER_PAGE).startsWith("101").endsWith("200");
        assertThat(second.selectFirst("#events-paging a[rel=first]").attr("href"))
                .isEqualTo("/runs/" + run + "#events");

        Document last = page("/runs/" + run + "?after=200");
        assertThat(last.selectFirst("#events-shown").text())
                .isEqualTo("Showing events 201 to " + EVENTS + ", 37 of " + EVENTS + " by sequence number.");
        assertThat(seqs(last)).hasSize(37);
        assertThat(last.select("#events-paging a[rel=next]")).isEmpty();

        assertThat(page("/runs/" + run + "?after=" + Long.MAX_VALUE)
                        .selectFirst("#events-shown")
                        .text())
                .isEqualTo("No events after sequence number " + Long.MAX_VALUE + " of " + EVENTS + ".");

        JsonPath json = given().when()
                .get("/api/v1/runs/" + run + "?after=100")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(json.getList("events.rows")).hasSize(RunEvents.PER_PAGE);
        assertThat(json.getLong("events.rows[0].seq")).isEqualTo(101);
        assertThat(json.getLong("events.count")).isEqualTo(EVENTS);
        assertThat(json.getLong("events.after")).isEqualTo(100);
        assertThat(json.getLong("events.next")).isEqualTo(200);
        assertThat(json.getString("events.rows[0].summary")).startsWith("POWER in W: 10000 samples");
    }

    /** A page of events that is no whole number from 0 is a 400 that says what it takes, on the page and its JSON. */
    @Test
    void aBadPageOfEventsIsRefusedWithWhatItTakes() {
        for (String after : new String[] {"-1", "abc", "1.5", "99999999999999999999", "1%00", "%F0%9F%98%80"}) {
            for (String path : new String[] {"/runs/", "/api/v1/runs/"}) {
                given().urlEncodingEnabled(false)
                        .when()
                        .get(path + SeedData.RUN_A + "?after=" + after)
                        .then()
                        .statusCode(400)
                        .body(startsWith("after: a whole number from 0"));
            }
        }
    }

    /** A run of {@code events} events, their summaries inserted last first: pages order by seq, not by storage. */
    private UUID runWithEvents(int events) throws SQLException {
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
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO proj_run_event (run_id, seq, position, type, schema_version, writer, occurred_at,
                                                recorded_at, summary)
                    SELECT ?, n, 1000000 + n, 'MetricSampled', 1, 'agent-x', '2026-11-21T09:00:00Z',
                           '2026-11-21T09:00:01Z', 'POWER in W: 10000 samples, t ' || (n * 2500) || '.0-' || (n * 2500 + 2499) || '.75 s'
                    FROM generate_series(?, 1, -1) n""")) {
                ps.setObject(1, run);
                ps.setInt(2, events);
                ps.executeUpdate();
            }
            try (PreparedStatement ps =
                    c.prepareStatement("INSERT INTO proj_run_event_count (run_id, events) VALUES (?, ?)")) {
                ps.setObject(1, run);
                ps.setLong(2, events);
                ps.executeUpdate();
            }
        }
        return run;
    }

    private static Document page(String path) {
        return Jsoup.parse(
                given().when().get(path).then().statusCode(200).extract().asString());
    }

    private static List<String> seqs(Document page) {
        return page.select("#events tbody tr td:nth-child(1)").eachText();
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
