package dev.podium.ingest.command;

import static dev.podium.ingest.testing.FleetJobs.WAIT;
import static dev.podium.ingest.testing.FleetJobs.claim;
import static dev.podium.ingest.testing.FleetJobs.onJobsTopic;
import static dev.podium.ingest.testing.FleetJobs.pool;
import static dev.podium.ingest.testing.FleetJobs.spec;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.job.JobRequested;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.FleetJobs;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Adaptive campaigns on the real broker, the test playing each pool's agent with correctly signed records: the ingest
 * batch that ends a campaign's last outstanding job decides whether to request another (for the side whose variance
 * dominates) or to stop, and records why.
 */
@QuarkusTest
class AdaptiveRunsIT {

    private static final ComparisonKey KEY =
            new ComparisonKey("adaptive-it", "1", "training", "m", "fp32", 32, 1, 128, new TreeMap<>());

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aNoisySideGetsTheExtraRunsUntilTheBudgetIsSpent() {
        Db db = new Db(dataSource);
        Campaign c = Campaign.submit(4, 1.0);
        // Side 0 (the first pool) varies by some 20% from run to run, side 1 by well under 1%.
        double[] noisy = {100, 130, 80, 115, 90, 125, 85, 110};
        double[] steady = {200, 201, 199, 200.5, 199.5, 200, 201, 199};
        c.runUntilStopped(db, side -> side == 0 ? noisy : steady);

        assertThat(db.rows(
                        "SELECT side::int, jobs, runs FROM campaign_adaptive_side WHERE campaign_id = ? ORDER BY side",
                        c.id))
                .containsExactly(List.of(0, 4, 4), List.of(1, 4, 4));
        assertThat(c.progress(db)).isEqualTo(List.of("budget_spent", 8, 8));
        assertThat(db.count("SELECT count(*) FROM job WHERE campaign_id = ?", c.id))
                .isEqualTo(8);
        // The side whose variance dominates got the fourth run first: the steady side's came only once it was spent.
        List<UUID> jobs = db.rows("SELECT job_id FROM job WHERE campaign_id = ? ORDER BY job_id", c.id).stream()
                .map(r -> (UUID) r.get(0))
                .toList();
        assertThat(db.one("SELECT pool FROM job WHERE job_id = ?", jobs.get(6))).isEqualTo(c.pools.get(0));
        assertThat(db.one("SELECT pool FROM job WHERE job_id = ?", jobs.get(7))).isEqualTo(c.pools.get(1));
        // The outbox publishes after the batch commits: the last request reaches podium.jobs a moment later.
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(onJobsTopic(jobs, JobRequested.class))
                        .hasSize(8)
                        .allSatisfy(e -> assertThat(((JobRequested) e.payload()).campaignId())
                                .isEqualTo(c.id)));
    }

    @Test
    void twoSteadySidesStopAtTheTargetAfterThreeRunsEach() {
        Db db = new Db(dataSource);
        Campaign c = Campaign.submit(20, 5.0);
        double[] a = {100, 101, 99};
        double[] b = {150, 151, 149};
        c.runUntilStopped(db, side -> side == 0 ? a : b);

        assertThat(db.rows(
                        "SELECT state, jobs_requested, runs_counted, half_width_pct < 5 FROM campaign_adaptive"
                                + " WHERE campaign_id = ?",
                        c.id))
                .containsExactly(List.of("target_met", 6, 6, true));
    }

    @Test
    void aLyingAgentsSecondCompletionAndAnUngrantedRunCountNothing() {
        Db db = new Db(dataSource);
        Campaign c = Campaign.submit(3, 1.0);
        UUID job = c.requested(db).get(0);
        String pool = (String) db.one("SELECT pool FROM job WHERE job_id = ?", job);
        TestAgent agent = c.agents.get(c.pools.indexOf(pool));
        UUID run = c.grant(db, agent, job, pool);
        // A second run stream of the same agent that was never granted the job reports a result for it.
        UUID stray = claim(agent, job, pool);
        Kafka.send(List.of(
                agent.signed(SampleEvents.runCompleted(run, agent.agentId(), 3, List.of(100.0, 100.0, 100.0))),
                agent.signed(SampleEvents.runCompleted(stray, agent.agentId(), 2, List.of(1.0, 1.0, 1.0))),
                agent.signed(SampleEvents.runCompleted(run, agent.agentId(), 4, List.of(5.0, 5.0, 5.0)))));
        await().atMost(WAIT)
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE stream_id = ?", "run/" + stray) >= 2);
        await().atMost(WAIT).until(() -> "done".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));
        assertThat(db.rows("SELECT runs_counted, jobs_requested FROM campaign_adaptive WHERE campaign_id = ?", c.id))
                .containsExactly(List.of(1, 2));
    }

    @Test
    void anAdminCancellingTheLastOutstandingJobStopsTheCampaignAsCancelled() {
        Db db = new Db(dataSource);
        Campaign c = Campaign.submit(5, 1.0);
        List<UUID> first = c.requested(db);
        UUID ran = first.get(0);
        String pool = (String) db.one("SELECT pool FROM job WHERE job_id = ?", ran);
        TestAgent agent = c.agents.get(c.pools.indexOf(pool));
        UUID run = c.grant(db, agent, ran, pool);
        Kafka.send(
                List.of(agent.signed(SampleEvents.runCompleted(run, agent.agentId(), 3, List.of(99.0, 100.0, 101.0)))));
        await().atMost(WAIT).until(() -> "done".equals(db.one("SELECT state FROM job WHERE job_id = ?", ran)));

        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/jobs/" + first.get(1) + "/cancel")
                .then()
                .statusCode(200);

        assertThat(c.progress(db)).isEqualTo(List.of("cancelled", 2, 1));
        assertThat(db.count("SELECT count(*) FROM job WHERE campaign_id = ?", c.id))
                .isEqualTo(2);
    }

    @Test
    void anAbsurdBudgetAScheduleOrThreeSidesAreRefusedWithTheirReason() {
        Map<String, Object> spec = new HashMap<>(spec(Map.of()));
        spec.put("adaptive", Map.of("max", 1_000_000_000, "target_half_width_pct", 2));
        refused(Map.of("name", "absurd", "pools", List.of(pool("a"), pool("b")), "spec", spec))
                .contains("spec.adaptive")
                .contains("max must be between 3 and 50 runs a side, was 1000000000");
        spec.put("adaptive", Map.of("max", 5, "target_half_width_pct", 2));
        refused(Map.of("name", "three", "pools", List.of(pool("a"), pool("b"), pool("c")), "spec", spec))
                .contains("needs a campaign of two sides");
        refused(Map.of("name", "nightly", "pools", List.of(pool("a"), pool("b")), "spec", spec, "schedule", "nightly"))
                .contains("an adaptive campaign runs once");
        spec.put("adaptive", Map.of("max", 1e30, "target_half_width_pct", 2));
        refused(Map.of("name", "huge", "pools", List.of(pool("a"), pool("b")), "spec", spec))
                .contains("spec.adaptive.max");
    }

    private static org.assertj.core.api.AbstractStringAssert<?> refused(Map<String, Object> campaign) {
        return assertThat(given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(campaign)
                .post("/admin/campaigns")
                .then()
                .statusCode(400)
                .extract()
                .asString());
    }

    /** An adaptive campaign on two new pools, one agent each. */
    private record Campaign(UUID id, List<String> pools, List<TestAgent> agents) {

        static Campaign submit(int max, double targetPct) {
            List<String> pools = List.of(pool("adaptive-a"), pool("adaptive-b"));
            Map<String, Object> spec = new HashMap<>(spec(Map.of()));
            spec.put(
                    "adaptive",
                    Map.of("max", max, "target_half_width_pct", targetPct, "metric", SampleEvents.THROUGHPUT_METRIC));
            UUID id = UUID.fromString(FleetJobs.submit(Map.of("name", "adaptive", "pools", pools, "spec", spec))
                    .getString("campaign_id"));
            return new Campaign(
                    id,
                    pools,
                    List.of(
                            TestAgent.register("adaptive-a", pools.get(0)),
                            TestAgent.register("adaptive-b", pools.get(1))));
        }

        /** The campaign's state, jobs requested and runs counted. */
        List<Object> progress(Db db) {
            return db.rows(
                            "SELECT state, jobs_requested, runs_counted FROM campaign_adaptive WHERE campaign_id = ?",
                            id)
                    .get(0);
        }

        List<UUID> requested(Db db) {
            return db
                    .rows("SELECT job_id FROM job WHERE campaign_id = ? AND state = 'requested' ORDER BY job_id", id)
                    .stream()
                    .map(r -> (UUID) r.get(0))
                    .toList();
        }

        UUID grant(Db db, TestAgent agent, UUID job, String pool) {
            UUID run = claim(agent, job, pool);
            await().atMost(WAIT).until(() -> "assigned".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));
            Kafka.send(List.of(agent.signed(SampleEvents.runStartedForJob(
                    run, job, 1, 2, agent.agentId(), "intel-gaudi2", KEY, Instant.now()))));
            return run;
        }

        /** Runs every job the campaign requests, the n-th run of a side reporting that side's n-th mean. */
        void runUntilStopped(Db db, IntFunction<double[]> means) {
            int[] done = new int[2];
            while ("running".equals(db.one("SELECT state FROM campaign_adaptive WHERE campaign_id = ?", id))) {
                List<UUID> open = await().atMost(WAIT)
                        .until(
                                () -> requested(db),
                                l -> !l.isEmpty()
                                        || !"running"
                                                .equals(db.one(
                                                        "SELECT state FROM campaign_adaptive WHERE campaign_id = ?",
                                                        id)));
                for (UUID job : open) {
                    int side = pools.indexOf((String) db.one("SELECT pool FROM job WHERE job_id = ?", job));
                    TestAgent agent = agents.get(side);
                    UUID run = grant(db, agent, job, pools.get(side));
                    double m = means.apply(side)[done[side]++];
                    Kafka.send(List.of(agent.signed(
                            SampleEvents.runCompleted(run, agent.agentId(), 3, List.of(m * 0.995, m, m * 1.005)))));
                    await().atMost(WAIT)
                            .until(() -> !"assigned".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));
                }
            }
        }
    }
}
