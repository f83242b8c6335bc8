package dev.podium.query.data;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.chart.LineCharts;
import dev.podium.query.support.PostgresDatabase;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * A run page reads a bounded amount whatever the database holds: only the series kinds it draws, and no more points of
 * each than a line draws (ingest stores them downsampled; even a table holding 100,000 is read thinned to the bound), so
 * the memory of one public request does not grow with the run (its events: {@code RunEventsIT}).
 */
@QuarkusTest
@QuarkusTestResource(PostgresDatabase.class)
class RunSeriesBoundIT {

    private static final int ROWS = 200;
    private static final int PER_ROW = 500;

    @Inject
    Queries queries;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @Test
    void aSeriesIsReadAsStoredAndNeverPastTheBound() throws SQLException {
        UUID run = UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement("""
                        WITH h AS (INSERT INTO proj_run_series_head (run_id, series, unit, samples, events, stride,
                                                                     last_position)
                                   VALUES (?, 'STEP_THROUGHPUT', 'samples/s', ?, ?, 1, 1))
                        INSERT INTO proj_run_series_point (run_id, series, idx, t, value, repetition)
                        SELECT ?, 'STEP_THROUGHPUT', i, i, 100 + i % 7, 0 FROM generate_series(0, ? - 1) i""")) {
            ps.setObject(1, run);
            ps.setLong(2, ROWS * PER_ROW);
            ps.setInt(3, ROWS);
            ps.setObject(4, run);
            ps.setInt(5, ROWS * PER_ROW);
            ps.executeUpdate();
            // a kind the page does not draw is not read at all
            try (PreparedStatement power = c.prepareStatement("""
                    WITH h AS (INSERT INTO proj_run_series_head (run_id, series, unit, samples, events, stride,
                                                                 last_position)
                               VALUES (?, 'POWER', 'W', 1000, 1, 1, 1))
                    INSERT INTO proj_run_series_point (run_id, series, idx, t, value, device)
                    SELECT ?, 'POWER', i, i, 300, 0 FROM generate_series(0, 999) i""")) {
                power.setObject(1, run);
                power.setObject(2, run);
                power.executeUpdate();
            }
        }
        List<SeriesRow> series = queries.series(run, List.of("step_throughput"), LineCharts.MAX_POINTS);
        assertThat(series).singleElement().satisfies(s -> {
            assertThat(s.series()).isEqualTo("STEP_THROUGHPUT");
            // every 128th of the 100,000: no more than a line draws, spread over the whole run
            assertThat(s.points().size()).isBetween(LineCharts.MAX_POINTS / 2, LineCharts.MAX_POINTS);
            assertThat(s.points().get(s.points().size() - 1).t()).isGreaterThan(0.99 * ROWS * PER_ROW);
            assertThat(s.points().get(0).t()).isZero();
            assertThat(s.points().get(0).repetition()).isZero();
            assertThat(s.points().get(0).device()).isNull();
        });
    }
}
