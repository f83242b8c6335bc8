package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.RunMeans;
import dev.podium.events.model.Statistics;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.CommandAppender;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Retractions;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Leaderboard rows extended batch by batch hold exactly the figures of the same rows computed from all their runs, and
 * whatever is not a plain addition (a retraction, a run's results sent again, a row from before sums were kept) has its
 * row recomputed: no run counted twice or kept after it stopped counting.
 */
@QuarkusTest
class LeaderboardExtensionIT {

    private static final String DEVICE = "intel-gaudi2";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CommandAppender appender;

    @Test
    void rowsGrowBatchByBatchAndAreRecomputedWhenRunsChange() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("extend");
        ComparisonKey key = SampleEvents.referenceKey(7301);
        Map<UUID, Double> counted = new LinkedHashMap<>();

        // three waves, each stored before the next is sent, so they are separate batches
        double base = 500.0;
        for (int wave = 0; wave < 3; wave++) {
            List<Envelope> events = new ArrayList<>();
            for (int i = 0; i < 3 + wave; i++) {
                UUID run = UUID.randomUUID();
                List<Double> values = List.of(base, base + 1.5, base + 0.25);
                counted.put(run, Statistics.of(values).mean());
                events.addAll(SampleEvents.completedRun(run, agent.agentId(), DEVICE, key, Instant.now(), values));
                base += 10.1;
            }
            agent.sendAndWait(db, events);
            assertRow(db, key, counted);
        }

        UUID retracted = counted.keySet().iterator().next();
        Retractions.retract(dataSource, appender, retracted);
        counted.remove(retracted);
        assertRow(db, key, counted);

        // The same run's results sent again with other values replace its mean rather than add a run.
        UUID resent = counted.keySet().iterator().next();
        List<Double> newValues = List.of(900.0, 901.0, 902.0);
        agent.sendAndWait(db, List.of(SampleEvents.runCompleted(resent, agent.agentId(), 4, newValues)));
        counted.put(resent, Statistics.of(newValues).mean());
        assertRow(db, key, counted);

        // A row written before its sums were kept is recomputed from its runs when a run joins it.
        db.rows(
                "UPDATE proj_leaderboard_row SET mean_sum = NULL, mean_sum_squares = NULL, runs = 0 "
                        + "WHERE key_id = ? RETURNING 1",
                key.id());
        UUID late = UUID.randomUUID();
        List<Double> lateValues = List.of(480.0, 481.0, 479.0);
        agent.sendAndWait(db, SampleEvents.completedRun(late, agent.agentId(), DEVICE, key, Instant.now(), lateValues));
        counted.put(late, Statistics.of(lateValues).mean());
        assertRow(db, key, counted);

        List<String> before = db.dump("proj_leaderboard_row");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_leaderboard_row")).containsExactlyElementsOf(before);
    }

    private static void assertRow(Db db, ComparisonKey key, Map<UUID, Double> runMeans) {
        RunMeans expected = RunMeans.of(runMeans.values());
        RunMeans.Figures figures = expected.figures();
        List<Object> row = db.rows("""
                SELECT runs, mean, ci95_low, ci95_high, cv, best, mean_sum, mean_sum_squares, n FROM proj_leaderboard_row
                WHERE key_id = ? AND device_id = ? AND source = 'measured'""", key.id(), DEVICE).get(0);
        assertThat(row.get(0)).isEqualTo(expected.runs());
        assertThat(row.get(1)).isEqualTo(figures.mean());
        assertThat(row.get(2)).isEqualTo(figures.ci95Low());
        assertThat(row.get(3)).isEqualTo(figures.ci95High());
        assertThat(row.get(4)).isEqualTo(figures.cv());
        assertThat(row.get(5)).isEqualTo(expected.max());
        assertThat((BigDecimal) row.get(6)).isEqualByComparingTo(expected.sum());
        assertThat((BigDecimal) row.get(7)).isEqualByComparingTo(expected.sumOfSquares());
        assertThat(row.get(8)).isEqualTo(3 * runMeans.size());
    }
}
