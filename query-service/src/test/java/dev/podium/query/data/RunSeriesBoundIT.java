package dev.podium.query.data;

import static org.assertj.core.api.Assertions.assertThat;

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
 * A run page reads a bounded amount whatever a run sent: a series of 100,000 samples arrives downsampled by the database,
 * so the memory of one public request does not grow with the run (its events: {@code RunEventsIT}).
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
    void aHugeSeriesIsDownsampledInTheDatabaseAndKeepsItsSpan() throws SQLException {
        UUID run = UUID.randomUUID();
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement("""
                        INSERT INTO proj_run_series (run_id, series, position, unit, samples)
                        SELECT ?, 'STEP_THROUGHPUT', p, 'samples/s',
                               (SELECT jsonb_agg(jsonb_build_object('t', p * ? + i, 'value', 100 + i % 7, 'repetition', 0))
                                FROM generate_series(0, ? - 1) i)
                        FROM generate_series(0, ? - 1) p""")) {
            ps.setObject(1, run);
            ps.setInt(2, PER_ROW);
            ps.setInt(3, PER_ROW);
            ps.setInt(4, ROWS);
            ps.executeUpdate();
        }
        List<SeriesRow> series = queries.series(run);
        assertThat(series).singleElement().satisfies(s -> {
            assertThat(s.series()).isEqualTo("STEP_THROUGHPUT");
            assertThat(s.samples().size()).isBetween(Queries.MAX_SERIES_POINTS / 2, Queries.MAX_SERIES_POINTS);
            assertThat(s.samples().get(0).path("t").asDouble()).isZero();
            assertThat(s.samples().get(s.samples().size() - 1).path("t").asDouble())
                    .isGreaterThan(ROWS * PER_ROW * 0.99);
        });
    }
}
