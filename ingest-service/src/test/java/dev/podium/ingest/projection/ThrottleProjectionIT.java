package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.StreamId;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Ingest judges not_throttled itself from the run's throttle-reason samples and devices, whatever the agent claims: a
 * thermal slowdown in the measured window or a power limit below its default fails the run (and takes it off the
 * leaderboards, which count valid runs only), a software power cap under the default limit passes, and a rebuild gives
 * the same rows.
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

        List<String> heads = db.dump("proj_run_throttle_head");
        List<String> spans = db.dump("proj_run_throttle");
        List<String> runs = db.dump("proj_run");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_run_throttle_head")).containsExactlyElementsOf(heads);
        assertThat(db.dump("proj_run_throttle")).containsExactlyElementsOf(spans);
        assertThat(db.dump("proj_run")).containsExactlyElementsOf(runs);
    }

    /**
     * A run on two devices with the given enforced limit (default 700 W) whose window's samples are clean but for
     * {@code reason} on device 1 at t = 12 and 13 s, a slowdown before the window on device 0, and a RunCompleted that
     * claims not_throttled passed.
     */
    private static UUID run(Db db, TestAgent agent, ComparisonKey key, double limit, ThrottleReason reason) {
        UUID run = UUID.randomUUID();
        String id = run.toString().substring(0, 8);
        RunStarted s = (RunStarted) SampleEvents.runStarted(run, agent.agentId(), "nvidia-h100-sxm", key, Instant.now())
                .payload();
        List<AcceleratorDevice> devices = List.of(
                new AcceleratorDevice(0, "GPU-" + id + "-0", limit, 700.0, 1980.0, 2619.0),
                new AcceleratorDevice(1, "GPU-" + id + "-1", limit, 700.0, 1980.0, 2619.0));
        RunStarted started = new RunStarted(
                s.runId(),
                s.jobId(),
                s.leaseEpoch(),
                s.host(),
                s.accelerators(),
                s.software(),
                s.workload(),
                s.key(),
                s.repetitions(),
                s.warmupSteps(),
                s.provenance(),
                devices);
        List<Sample> samples = new ArrayList<>();
        samples.add(new Sample(0.5, ThrottleReason.HW_SLOWDOWN.bit(), null, 0));
        for (int t = 1; t <= 20; t++) {
            for (int d = 0; d < 2; d++) {
                long bits = d == 1 && (t == 12 || t == 13) ? ThrottleReason.bits(Set.of(reason)) : 0;
                samples.add(new Sample(t, bits, t <= 10 ? 0 : 1, d));
            }
        }
        RunCompleted c = (RunCompleted) SampleEvents.runCompleted(run, agent.agentId(), 3, List.of(100.0, 101.0, 99.0))
                .payload();
        List<ValidityCheck> claimed = new ArrayList<>(c.validity());
        claimed.add(new ValidityCheck("not_throttled", true, "no slowdown (as the agent says)"));
        agent.sendAndWait(
                db,
                List.of(
                        SampleEvents.envelope(StreamId.run(run), 1, agent.agentId(), Instant.now(), started),
                        SampleEvents.metricSampled(
                                run, agent.agentId(), 2, SeriesKind.THROTTLE_REASONS, "reasons", samples),
                        SampleEvents.envelope(
                                StreamId.run(run),
                                3,
                                agent.agentId(),
                                Instant.now(),
                                new RunCompleted(run, c.metrics(), claimed, c.durationSeconds()))));
        return run;
    }

    private static List<Object> check(Db db, UUID run) {
        return db.rows("""
                        SELECT (c->>'passed')::boolean, c->>'detail' FROM proj_run r,
                            jsonb_array_elements(r.validity) c WHERE r.run_id = ? AND c->>'name' = 'not_throttled'""", run).get(0);
    }
}
