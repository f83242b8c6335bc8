package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.agent.AgentRegistered;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.ComparisonKey;
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
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Fleet fitness from correctly signed records: each agent's accelerator is scored against its pool's other agents for
 * the same comparison key and metric (median and MAD, one voice per agent), so a weak device is flagged with its
 * evidence, and one enrolled agent that lies (absurd figures, on many claimed devices) is flagged itself without moving
 * the honest ones; runs are counted per host and device by outcome, and a rebuild gives the same rows.
 */
@QuarkusTest
class FleetProjectionIT {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aWeakDeviceAndALiarAreFlaggedWhileTheHonestAreNot() {
        Db db = new Db(dataSource);
        String pool = "fit-" + UUID.randomUUID().toString().substring(0, 8);
        ComparisonKey key = SampleEvents.referenceKey(5_000_000 + new Random().nextInt(1_000_000));
        List<TestAgent> honest = new ArrayList<>();
        for (double mean : new double[] {100, 102, 98, 101, 99}) {
            TestAgent agent = enrol(db, pool);
            honest.add(agent);
            run(db, agent, key, "GPU-" + agent.agentId(), List.of(mean - 1, mean, mean + 1));
        }
        TestAgent weak = enrol(db, pool);
        run(db, weak, key, "GPU-weak", List.of(59.0, 60.0, 61.0));
        TestAgent liar = enrol(db, pool);
        for (int i = 0; i < 5; i++) {
            run(db, liar, key, "GPU-claimed-" + i, List.of(1e9, 1e9, 1e9));
        }
        UUID failed = UUID.randomUUID();
        TestAgent first = honest.get(0);
        first.sendAndWait(
                db,
                List.of(
                        started(failed, first.agentId(), key, "GPU-" + first.agentId()),
                        SampleEvents.runFailed(failed, first.agentId(), 2, "run", "out of memory")));

        List<List<Object>> flagged = db.rows("""
                SELECT device, median, mad, group_n, z FROM proj_fleet_cell WHERE pool = ? AND key_id IS NOT NULL
                AND flagged ORDER BY z, device""", pool);
        assertThat(flagged)
                .extracting(r -> r.get(0))
                .containsExactly(
                        "GPU-weak",
                        "GPU-claimed-0",
                        "GPU-claimed-1",
                        "GPU-claimed-2",
                        "GPU-claimed-3",
                        "GPU-claimed-4");
        // 7 agents' medians: 98, 99, 100, 101, 102, 60, 1e9: median 100, |deviations| 2, 1, 0, 1, 2, 40, ~1e9: MAD 2
        assertThat(flagged.get(0).subList(1, 4)).containsExactly(100.0, 2.0, 7);
        assertThat((double) flagged.get(0).get(4)).isCloseTo(0.6745 * (60 - 100) / 2, within(1e-9));
        assertThat(db.count("SELECT count(*) FROM proj_fleet_cell WHERE pool = ? AND NOT flagged", pool))
                .isEqualTo(5);
        assertThat(db.rows("""
                        SELECT runs, succeeded, invalid, failed, cancelled, device_id, driver FROM proj_fleet_unit
                        WHERE pool = ? AND agent_id = ?""", pool, first.agentId()))
                .containsExactly(List.of(2L, 1L, 0L, 1L, 0L, "nvidia-h100-sxm-80gb", "1.16.0"));
        assertThat(db.count("SELECT count(*) FROM proj_fleet_unit WHERE pool = ?", pool))
                .isEqualTo(11);

        List<String> cells = db.dump("proj_fleet_cell");
        List<String> units = db.dump("proj_fleet_unit");
        List<String> runs = db.dump("proj_fleet_run");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_fleet_run")).containsExactlyElementsOf(runs);
        assertThat(db.dump("proj_fleet_unit")).containsExactlyElementsOf(units);
        assertThat(db.dump("proj_fleet_cell")).containsExactlyElementsOf(cells);
    }

    @Test
    void aRetractedRunLeavesItsCellAndItsCounts() {
        Db db = new Db(dataSource);
        String pool = "fit-" + UUID.randomUUID().toString().substring(0, 8);
        ComparisonKey key = SampleEvents.referenceKey(6_000_000 + new Random().nextInt(1_000_000));
        TestAgent agent = enrol(db, pool);
        UUID run = run(db, agent, key, "GPU-r", List.of(10.0, 11.0, 12.0));
        assertThat(db.count("SELECT count(*) FROM proj_fleet_cell WHERE pool = ?", pool))
                .isEqualTo(1);

        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType("application/json")
                .body("{\"reason\": \"bad cable\"}")
                .post("/admin/runs/" + run + "/retract")
                .then()
                .statusCode(org.hamcrest.Matchers.lessThan(300));

        org.awaitility.Awaitility.await()
                .until(() -> db.count("SELECT count(*) FROM proj_fleet_cell WHERE pool = ?", pool) == 0);
        assertThat(db.count("SELECT count(*) FROM proj_fleet_unit WHERE pool = ?", pool))
                .isZero();
        assertThat(db.one("SELECT outcome FROM proj_fleet_run WHERE run_id = ?", run))
                .isEqualTo("SET_ASIDE");
    }

    /** An enrolled agent whose key and registration name the pool. */
    private static TestAgent enrol(Db db, String pool) {
        TestAgent agent = TestAgent.register("fit", pool);
        UUID boot = UUID.randomUUID();
        agent.sendAndWait(
                db,
                List.of(SampleEvents.envelope(
                        StreamId.agent(agent.agentId(), boot),
                        1,
                        agent.agentId(),
                        Instant.now(),
                        new AgentRegistered(
                                agent.agentId(),
                                boot,
                                pool,
                                SampleEvents.AGENT_VERSION,
                                SampleEvents.host(agent.agentId()),
                                List.of(SampleEvents.accelerator("nvidia-h100-sxm-80gb", 1)),
                                SampleEvents.software()))));
        return agent;
    }

    /** A completed run on one device of the agent's host, with the given repetitions. */
    private static UUID run(Db db, TestAgent agent, ComparisonKey key, String device, List<Double> values) {
        UUID run = UUID.randomUUID();
        agent.sendAndWait(
                db,
                List.of(
                        started(run, agent.agentId(), key, device),
                        SampleEvents.runCompleted(run, agent.agentId(), 2, values)));
        return run;
    }

    private static Envelope started(UUID run, String agentId, ComparisonKey key, String device) {
        RunStarted s = (RunStarted) SampleEvents.runStarted(run, agentId, "nvidia-h100-sxm-80gb", key, Instant.now())
                .payload();
        return SampleEvents.envelope(
                StreamId.run(run),
                1,
                agentId,
                Instant.now(),
                new RunStarted(
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
                        List.of(new AcceleratorDevice(0, device, 700.0, 700.0, 1980.0, 2619.0))));
    }
}
