package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
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
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The energy of a cell comes from its runs' power samples as batches bring them, in whatever order: each device's
 * samples averaged and summed over devices, joules per unit per run summed apart for the runs that failed a check; a
 * retraction takes its run out; a rebuild gives the same rows.
 */
@QuarkusTest
class EnergyProjectionIT {

    private static final String DEVICE = "amd-mi300x";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CommandAppender appender;

    @Test
    void cellsSumEachRunsJoulesPerUnitFromItsPowerSamples() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("energy");
        ComparisonKey key = SampleEvents.referenceKey(2_000_000 + new Random().nextInt(1_000_000));
        UUID twoDevices = UUID.randomUUID();
        UUID lateSamples = UUID.randomUUID();
        UUID failing = UUID.randomUUID();
        UUID withoutPower = UUID.randomUUID();
        UUID startUpOnly = UUID.randomUUID();

        // 300 and 500 W on device 0, 350 W on device 1: 750 W at 50 samples/s, 15 J a sample.
        agent.sendAndWait(
                db,
                List.of(
                        SampleEvents.runStarted(twoDevices, agent.agentId(), DEVICE, key, Instant.now()),
                        power(
                                twoDevices,
                                agent,
                                2,
                                new Sample(1, 300, 0, 0),
                                new Sample(2, 500, 0, 0),
                                new Sample(1, 350, 0, 1)),
                        SampleEvents.runCompleted(twoDevices, agent.agentId(), 3, List.of(49.0, 50.0, 51.0)),
                        // Two repetitions fail the min_repetitions check: 200 W at 20 samples/s, 10 J, counted apart;
                        // its 1000 W at start-up, before the first repetition, is outside the measured window.
                        SampleEvents.runStarted(failing, agent.agentId(), DEVICE, key, Instant.now()),
                        power(failing, agent, 2, new Sample(0.5, 1000, null, null), new Sample(1, 200, 0, null)),
                        SampleEvents.runCompleted(failing, agent.agentId(), 3, List.of(20.0, 20.0)),
                        // Power at start-up only: no energy over the measured window, no part in the cell.
                        SampleEvents.runStarted(startUpOnly, agent.agentId(), DEVICE, key, Instant.now()),
                        power(startUpOnly, agent, 2, new Sample(0.5, 900, null, 0)),
                        SampleEvents.runCompleted(startUpOnly, agent.agentId(), 3, List.of(49.0, 50.0, 51.0))));
        agent.sendAndWait(
                db,
                SampleEvents.completedRun(
                        withoutPower, agent.agentId(), DEVICE, key, Instant.now(), List.of(99.0, 100.0, 101.0)));
        assertThat(db.rows("SELECT system_watts, samples FROM proj_run_power WHERE run_id = ?", twoDevices))
                .containsExactly(List.of(750.0, 3L));
        assertCell(db, key, 1, "15", "750", 1, "10", "200");
        assertThat(db.rows(
                        "SELECT system_watts, samples, window_watts_exact::float8, window_samples FROM proj_run_power"
                                + " WHERE run_id = ?",
                        failing))
                .containsExactly(List.of(600.0, 2L, 200.0, 1L));

        // Power that arrives in a later batch, part of it after the run completed: 300 then 500 W, 400 W at 100/s.
        agent.sendAndWait(
                db,
                List.of(
                        SampleEvents.runStarted(lateSamples, agent.agentId(), DEVICE, key, Instant.now()),
                        power(lateSamples, agent, 2, new Sample(1, 300, 0, 0)),
                        SampleEvents.runCompleted(lateSamples, agent.agentId(), 3, List.of(99.0, 100.0, 101.0))));
        assertCell(db, key, 2, "18", "1050", 1, "10", "200");
        agent.sendAndWait(db, List.of(power(lateSamples, agent, 4, new Sample(2, 500, 0, 0))));
        assertThat(db.rows("SELECT system_watts, samples FROM proj_run_power WHERE run_id = ?", lateSamples))
                .containsExactly(List.of(400.0, 2L));
        assertCell(db, key, 2, "19", "1150", 1, "10", "200");
        // 15² + 4²: the squares an interval needs, of the same runs.
        assertThat((BigDecimal) db.rows(
                                "SELECT joules_sq FROM proj_energy_cell WHERE key_id = ? AND device_id = ?",
                                key.id(),
                                DEVICE)
                        .get(0)
                        .get(0))
                .isEqualByComparingTo("241");

        Retractions.retract(dataSource, appender, twoDevices);
        assertCell(db, key, 1, "4", "400", 1, "10", "200");
        assertThat(db.count("SELECT count(*) FROM proj_run_power WHERE run_id = ?", withoutPower))
                .isZero();

        List<String> cells = db.dump("proj_energy_cell");
        List<String> power = db.dump("proj_run_power");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_energy_cell")).containsExactlyElementsOf(cells);
        assertThat(db.dump("proj_run_power")).containsExactlyElementsOf(power);
    }

    private static Envelope power(UUID run, TestAgent agent, long seq, Sample... samples) {
        return SampleEvents.metricSampled(run, agent.agentId(), seq, SeriesKind.POWER, "W", List.of(samples));
    }

    private static void assertCell(
            Db db,
            ComparisonKey key,
            int runs,
            String joules,
            String watts,
            int failingRuns,
            String failingJoules,
            String failingWatts) {
        List<List<Object>> rows = db.rows("""
                SELECT runs, joules_sum, watts_sum, failing_runs, failing_joules_sum, failing_watts_sum FROM proj_energy_cell
                WHERE key_id = ? AND metric = ? AND device_id = ?""", key.id(), SampleEvents.THROUGHPUT_METRIC, DEVICE);
        assertThat(rows).hasSize(1);
        List<Object> row = rows.get(0);
        assertThat(row.get(0)).isEqualTo(runs);
        assertThat((BigDecimal) row.get(1)).isEqualByComparingTo(joules);
        assertThat((BigDecimal) row.get(2)).isEqualByComparingTo(watts);
        assertThat(row.get(3)).isEqualTo(failingRuns);
        assertThat((BigDecimal) row.get(4)).isEqualByComparingTo(failingJoules);
        assertThat((BigDecimal) row.get(5)).isEqualByComparingTo(failingWatts);
    }
}
