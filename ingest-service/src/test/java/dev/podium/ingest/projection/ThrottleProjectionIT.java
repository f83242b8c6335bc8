package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.TestAgent;
import dev.podium.ingest.testing.ThrottledRuns;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Ingest judges not_throttled itself from the run's throttle-reason samples and devices, whatever the agent claims: a
 * thermal slowdown in the measured window or a power limit below its default fails the run (and takes it off the
 * leaderboards, which count valid runs only), a software power cap under the default limit passes, the comparison cell
 * says how many runs ran capped with the lowest limit and its default, and a rebuild gives the same rows.
 */
@QuarkusTest
class ThrottleProjectionIT {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void thermalSlowdownOrALoweredLimitFailsNotThrottledWhileASoftwarePowerCapPasses() {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("throttle");
        ComparisonKey key = SampleEvents.referenceKey(4_000_000 + new Random().nextInt(1_000_000));

        UUID thermal = run(db, agent, key, 700, ThrottleReason.HW_THERMAL_SLOWDOWN);
        UUID capped = run(db, agent, key, 450, ThrottleReason.SW_POWER_CAP);
        UUID normal = run(db, agent, key, 700, ThrottleReason.SW_POWER_CAP);

        assertThat(check(db, thermal))
                .containsExactly(
                        false,
                        "hardware thermal slowdown on device 1 (GPU-"
                                + thermal.toString().substring(0, 8) + "-1) in 2 samples from 12.0 s to 13.0 s");
        assertThat(check(db, capped))
                .containsExactly(
                        false,
                        "power limit 450 W below its default 700 W on device 0 (GPU-"
                                + capped.toString().substring(0, 8) + "-0); power limit 450 W below its default 700 W"
                                + " on device 1 (GPU-" + capped.toString().substring(0, 8) + "-1)");
        assertThat(check(db, normal))
                .containsExactly(
                        true,
                        "no slowdown in 40 throttle-reason samples; software power cap in 2 (normal at full load);"
                                + " power limits at their defaults");
        assertThat(db.rows(
                        "SELECT run_id, valid FROM proj_run WHERE run_id IN (?, ?, ?) ORDER BY valid",
                        thermal,
                        capped,
                        normal))
                .extracting(r -> r.get(1))
                .containsExactly(false, false, true);

        assertThat(db.rows("""
                        SELECT c.capped_runs, c.capped_limit_w, c.capped_default_w FROM proj_comparison_cell c
                        JOIN proj_run r ON r.key_id = c.key_id AND r.device_id = c.device_id WHERE r.run_id = ?""", capped)).containsExactly(List.of(1, 450.0, 700.0));

        List<String> heads = db.dump("proj_run_throttle_head");
        List<String> spans = db.dump("proj_run_throttle");
        List<String> runs = db.dump("proj_run");
        List<String> cells = db.dump("proj_comparison_cell");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_run_throttle_head")).containsExactlyElementsOf(heads);
        assertThat(db.dump("proj_run_throttle")).containsExactlyElementsOf(spans);
        assertThat(db.dump("proj_run")).containsExactlyElementsOf(runs);
        assertThat(db.dump("proj_comparison_cell")).containsExactlyElementsOf(cells);
    }

    /** A run of {@link ThrottledRuns#run}, sent and stored. */
    private static UUID run(Db db, TestAgent agent, ComparisonKey key, double limit, ThrottleReason reason) {
        UUID run = UUID.randomUUID();
        agent.sendAndWait(db, ThrottledRuns.run(run, agent.agentId(), key, limit, reason));
        return run;
    }

    private static List<Object> check(Db db, UUID run) {
        return db.rows("""
                        SELECT (c->>'passed')::boolean, c->>'detail' FROM proj_run r,
                            jsonb_array_elements(r.validity) c WHERE r.run_id = ? AND c->>'name' = 'not_throttled'""", run).get(0);
    }
}
