package dev.podium.ingest.command;

import static dev.podium.ingest.testing.FleetJobs.WAIT;
import static dev.podium.ingest.testing.FleetJobs.claim;
import static dev.podium.ingest.testing.FleetJobs.granted;
import static dev.podium.ingest.testing.FleetJobs.heartbeat;
import static dev.podium.ingest.testing.FleetJobs.onJobsTopic;
import static dev.podium.ingest.testing.FleetJobs.pool;
import static dev.podium.ingest.testing.FleetJobs.signedOnJobsTopic;
import static dev.podium.ingest.testing.FleetJobs.spec;
import static dev.podium.ingest.testing.FleetJobs.submit;
import static dev.podium.ingest.testing.FleetJobs.uuids;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.podium.events.Envelope;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.FleetJobs.Granted;
import dev.podium.ingest.testing.FleetJobs.Signed;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The command side of fleet benchmarking on the real broker: the test plays the agents (signed JobClaimed, RunStarted,
 * RunCompleted and heartbeats with issued keys) and reads what agents read on podium.jobs.
 */
@QuarkusTest
class FleetJobsIT {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    OutboxRelay relay;

    @Inject
    FleetCommands fleet;

    @Test
    void aCampaignOfThreePointsOnTwoPoolsOffersSixJobsAndOnlyTheFirstClaimIsGranted() {
        Db db = new Db(dataSource);
        String gaudi = pool("gaudi2");
        String h100 = pool("h100");
        JsonPath created = submit(Map.of(
                "name",
                "sweep",
                "pools",
                List.of(gaudi, h100),
                "spec",
                spec(Map.of("batch_size", List.of("16", "32", "64")))));
        List<UUID> jobIds = uuids(created.getList("job_ids", String.class));
        assertThat(jobIds).hasSize(6);

        List<Envelope> requested =
                await().atMost(WAIT).until(() -> onJobsTopic(jobIds, JobRequested.class), l -> l.size() >= 6);
        assertThat(requested).hasSize(6);
        assertThat(requested.stream()
                        .map(e -> ((JobRequested) e.payload()).jobId())
                        .collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(jobIds);
        assertThat(requested.stream()
                        .map(e -> ((JobRequested) e.payload()).pool() + ":"
                                + ((JobRequested) e.payload())
                                        .spec()
                                        .parameters()
                                        .get("batch_size")))
                .containsExactlyInAnyOrder(
                        gaudi + ":16", gaudi + ":32", gaudi + ":64", h100 + ":16", h100 + ":32", h100 + ":64");
        assertThat(requested).allSatisfy(e -> {
            JobRequested r = (JobRequested) e.payload();
            assertThat(r.spec().matrix()).isEmpty();
            assertThat(r.spec().pool()).isEqualTo(r.pool());
            assertThat(r.campaignId()).hasToString(created.getString("campaign_id"));
        });

        UUID job = jobIds.get(0);
        TestAgent first = TestAgent.register("fleet-a", gaudi);
        TestAgent second = TestAgent.register("fleet-b", gaudi);
        UUID firstRun = claim(first, job, gaudi);
        await().atMost(WAIT).until(() -> db.count("SELECT count(*) FROM proj_run WHERE run_id = ?", firstRun) == 1);
        UUID secondRun = claim(second, job, gaudi);
        await().atMost(WAIT).until(() -> db.count("SELECT count(*) FROM proj_run WHERE run_id = ?", secondRun) == 1);

        List<Envelope> assigned =
                await().atMost(WAIT).until(() -> onJobsTopic(List.of(job), JobAssigned.class), l -> !l.isEmpty());
        assertThat(assigned).hasSize(1);
        JobAssigned grant = (JobAssigned) assigned.get(0).payload();
        assertThat(grant.runId()).isEqualTo(firstRun);
        assertThat(grant.agentId()).isEqualTo(first.agentId());
        assertThat(grant.leaseEpoch()).isEqualTo(1);
        assertThat(grant.leaseExpiresAt()).isAfter(Instant.now().minusSeconds(60));
        assertThat(assigned.get(0).streamId()).isEqualTo("job/" + job);
        assertThat(assigned.get(0).seq()).isEqualTo(2);
        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", secondRun))
                .isEqualTo("claimed");
        assertThat(db.count("SELECT count(*) FROM job_grant WHERE job_id = ?", job))
                .isEqualTo(1);

        JsonPath campaign = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .get("/admin/campaigns/" + created.getString("campaign_id"))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(campaign.getList("jobs")).hasSize(6);
        assertThat(campaign.getString("jobs.find { it.job_id == '" + job + "' }.agent_id"))
                .isEqualTo(first.agentId());
        assertThat(campaign.getInt("states.requested")).isEqualTo(5);
        assertThat(campaign.getInt("states.assigned")).isEqualTo(1);
        // Ends the lease now rather than leave it for the reaper while other test classes run.
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/jobs/" + job + "/cancel")
                .then()
                .statusCode(200);
    }

    @Test
    void anExpiredLeaseOffersTheJobAgainAndTheSupersededRunsLateResultNeverCounts() {
        Db db = new Db(dataSource);
        String pool = pool("mi250");
        UUID job = uuids(submit(Map.of("name", "expiry", "pools", List.of(pool), "spec", spec(Map.of())))
                        .getList("job_ids", String.class))
                .get(0);
        TestAgent killed = TestAgent.register("fleet-killed", pool);
        TestAgent other = TestAgent.register("fleet-other", pool);
        String benchmark = "fleet-" + UUID.randomUUID().toString().substring(0, 8);
        ComparisonKey key = new ComparisonKey(
                benchmark,
                "1",
                "training",
                "m",
                "fp32",
                32,
                1,
                128,
                new TreeMap<>(Map.of("dataloader_num_workers", "0")));

        UUID oldRun = claim(killed, job, pool);
        await().atMost(WAIT)
                .until(() -> !onJobsTopic(List.of(job), JobAssigned.class).isEmpty());
        Kafka.send(List.of(killed.signed(
                SampleEvents.runStartedForJob(oldRun, job, 1, 2, killed.agentId(), "amd-mi250x", key, Instant.now()))));

        // No heartbeat: the reaper expires the lease and offers the job again, on the same job stream.
        List<Envelope> expired =
                await().atMost(WAIT).until(() -> onJobsTopic(List.of(job), JobLeaseExpired.class), l -> !l.isEmpty());
        assertThat(expired).hasSize(1);
        assertThat((JobLeaseExpired) expired.get(0).payload())
                .isEqualTo(new JobLeaseExpired(job, oldRun, killed.agentId(), 1));
        List<Envelope> offers =
                await().atMost(WAIT).until(() -> onJobsTopic(List.of(job), JobRequested.class), l -> l.size() >= 2);
        assertThat(offers).extracting(Envelope::seq).containsExactly(1L, 4L);
        assertThat(signedOnJobsTopic(List.of(job), JobRequested.class))
                .as("the epochs the offers are signed for")
                .extracting(Signed::epoch)
                .containsExactly(1, 2);

        UUID newRun = claim(other, job, pool);
        List<Envelope> grants =
                await().atMost(WAIT).until(() -> onJobsTopic(List.of(job), JobAssigned.class), l -> l.size() >= 2);
        JobAssigned second = (JobAssigned) grants.get(1).payload();
        assertThat(second.runId()).isEqualTo(newRun);
        assertThat(second.agentId()).isEqualTo(other.agentId());
        assertThat(second.leaseEpoch()).isEqualTo(2);

        Kafka.send(List.of(
                other.signed(SampleEvents.runStartedForJob(
                        newRun, job, 2, 2, other.agentId(), "amd-mi250x", key, Instant.now())),
                other.signed(SampleEvents.runCompleted(newRun, other.agentId(), 3, List.of(500.0, 510.0, 520.0))),
                killed.signed(SampleEvents.runCompleted(oldRun, killed.agentId(), 3, List.of(90.0, 91.0, 92.0)))));
        await().atMost(WAIT)
                .until(() -> db.count(
                                "SELECT count(*) FROM proj_run WHERE run_id IN (?, ?) AND finished_at IS NOT NULL",
                                oldRun,
                                newRun)
                        == 2);

        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", oldRun))
                .isEqualTo("superseded");
        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", newRun))
                .isEqualTo("completed");
        assertThat(db.rows("SELECT runs, mean FROM proj_leaderboard_row WHERE benchmark = ?", benchmark))
                .containsExactly(List.of(1, 510.0));
        JsonPath shown = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .get("/admin/jobs/" + job)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(shown.getString("state")).isEqualTo("done");
        assertThat(shown.getInt("lease_epoch")).isEqualTo(2);
        assertThat(shown.getString("run_id")).isEqualTo(newRun.toString());
    }

    @Test
    void aClaimForAPoolItsKeyIsNotBoundToOrNamingNoPoolIsRefused() {
        Db db = new Db(dataSource);
        String pool = pool("bound");
        UUID job = uuids(submit(Map.of("name", "bound", "pools", List.of(pool), "spec", spec(Map.of())))
                        .getList("job_ids", String.class))
                .get(0);
        TestAgent outsider = TestAgent.register("fleet-outsider", pool("elsewhere"));
        TestAgent silent = TestAgent.register("fleet-silent", pool);
        UUID lying = claim(outsider, job, pool);
        UUID noPool = UUID.randomUUID();
        Kafka.send(List.of(silent.signed(SampleEvents.jobClaimed(noPool, job, silent.agentId(), null, Instant.now()))));
        await().atMost(WAIT)
                .until(() -> db.count("SELECT count(*) FROM proj_run WHERE run_id IN (?, ?)", lying, noPool) == 2);
        assertThat(db.count("SELECT count(*) FROM job_grant WHERE job_id = ?", job))
                .isZero();

        TestAgent member = TestAgent.register("fleet-member", pool);
        UUID granted = claim(member, job, pool);
        List<Envelope> grants =
                await().atMost(WAIT).until(() -> onJobsTopic(List.of(job), JobAssigned.class), l -> !l.isEmpty());
        assertThat(grants)
                .singleElement()
                .satisfies(e -> assertThat(((JobAssigned) e.payload()).runId()).isEqualTo(granted));
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/jobs/" + job + "/cancel")
                .then()
                .statusCode(200);
    }

    @Test
    void aRunWhoseClaimWasNotGrantedNeverCountsWhateverItReports() {
        Db db = new Db(dataSource);
        String pool = pool("h200");
        UUID job = uuids(submit(Map.of("name", "ungranted", "pools", List.of(pool), "spec", spec(Map.of())))
                        .getList("job_ids", String.class))
                .get(0);
        TestAgent winner = TestAgent.register("fleet-winner", pool);
        TestAgent eager = TestAgent.register("fleet-eager", pool);
        String benchmark = "fleet-" + UUID.randomUUID().toString().substring(0, 8);
        ComparisonKey key = new ComparisonKey(
                benchmark,
                "1",
                "training",
                "m",
                "fp32",
                32,
                1,
                128,
                new TreeMap<>(Map.of("dataloader_num_workers", "0")));

        UUID granted = claim(winner, job, pool);
        await().atMost(WAIT)
                .until(() -> !onJobsTopic(List.of(job), JobAssigned.class).isEmpty());
        UUID lost = claim(eager, job, pool);
        await().atMost(WAIT).until(() -> db.count("SELECT count(*) FROM proj_run WHERE run_id = ?", lost) == 1);

        // The losing agent runs the job anyway, under the epoch it was never granted.
        Kafka.send(List.of(
                eager.signed(SampleEvents.runStartedForJob(
                        lost, job, 1, 2, eager.agentId(), "nvidia-h200-sxm-141gb", key, Instant.now())),
                eager.signed(SampleEvents.runCompleted(lost, eager.agentId(), 3, List.of(900.0, 910.0, 920.0))),
                winner.signed(SampleEvents.runStartedForJob(
                        granted, job, 1, 2, winner.agentId(), "nvidia-h200-sxm-141gb", key, Instant.now())),
                winner.signed(SampleEvents.runCompleted(granted, winner.agentId(), 3, List.of(500.0, 510.0, 520.0)))));
        await().atMost(WAIT)
                .until(() -> db.count(
                                "SELECT count(*) FROM proj_run WHERE run_id IN (?, ?) AND finished_at IS NOT NULL",
                                lost,
                                granted)
                        == 2);

        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", lost)).isEqualTo("superseded");
        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", granted))
                .isEqualTo("completed");
        assertThat(db.rows("SELECT runs, mean FROM proj_leaderboard_row WHERE benchmark = ?", benchmark))
                .containsExactly(List.of(1, 510.0));
    }

    @Test
    void heartbeatsKeepALeaseAlivePastItsDurationAndItExpiresWhenTheyStop() throws Exception {
        Db db = new Db(dataSource);
        Granted granted = granted("beats");
        UUID job = granted.job();
        TestAgent agent = granted.agent();
        UUID run = granted.run();

        // Lease duration in tests is 3 s: heartbeats every 500 ms keep the job with its run until the database's clock
        // is a whole lease past the first lease's end (a wrong epoch would not).
        double keptPast = ((Number) db.one(
                        "SELECT extract(epoch FROM lease_expires_at)::float8 + 3 FROM job WHERE job_id = ?", job))
                .doubleValue();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
            Kafka.send(List.of(heartbeat(agent, job, run, 1)));
            assertThat(db.one("SELECT state FROM job WHERE job_id = ?", job))
                    .as("the job while heartbeats arrive")
                    .isEqualTo("assigned");
            return db.count("SELECT count(*) WHERE extract(epoch FROM clock_timestamp()) > ?", keptPast) == 1;
        });
        assertThat(db.rows("SELECT state, lease_epoch, run_id FROM job WHERE job_id = ?", job))
                .containsExactly(List.of("assigned", 1, run));
        assertThat(onJobsTopic(List.of(job), JobLeaseExpired.class)).isEmpty();

        Kafka.send(List.of(heartbeat(agent, job, run, 7))); // not the lease's epoch: renews nothing
        await().atMost(WAIT).until(() -> "requested".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));
        assertThat(db.one("SELECT lease_epoch FROM job WHERE job_id = ?", job)).isEqualTo(2);
    }

    @Test
    void aReplayedHeartbeatDoesNotExtendTheLease() throws Exception {
        Db db = new Db(dataSource);
        Granted granted = granted("replay");
        UUID job = granted.job();
        TestAgent agent = granted.agent();
        ProducerRecord<byte[], byte[]> beat = heartbeat(agent, job, granted.run(), 1);
        Kafka.send(List.of(beat));
        await().atMost(WAIT)
                .until(() -> db.count("SELECT count(*) FROM agent_status WHERE agent_id = ?", agent.agentId()) == 1);

        // The agent died; someone replays its last heartbeat twice a second. The 3 s lease still expires.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> {
            Kafka.send(List.of(beat));
            return "requested".equals(db.one("SELECT state FROM job WHERE job_id = ?", job));
        });
        assertThat(db.one("SELECT lease_epoch FROM job WHERE job_id = ?", job)).isEqualTo(2);
    }

    @Test
    void cancellingAJobRelaysJobCancelledAndEndsIt() {
        String pool = pool("cpu");
        UUID job = uuids(submit(Map.of("name", "cancel", "pools", List.of(pool), "spec", spec(Map.of())))
                        .getList("job_ids", String.class))
                .get(0);
        TestAgent agent = TestAgent.register("fleet-cancel", pool);
        claim(agent, job, pool);
        await().atMost(WAIT)
                .until(() -> !onJobsTopic(List.of(job), JobAssigned.class).isEmpty());

        assertThat(given().auth()
                        .oauth2(TestAgent.ADMIN_TOKEN)
                        .contentType(ContentType.JSON)
                        .body(Map.of("reason", "wrong pool"))
                        .post("/admin/jobs/" + job + "/cancel")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("state"))
                .isEqualTo("cancelled");
        List<Envelope> cancelled =
                await().atMost(WAIT).until(() -> onJobsTopic(List.of(job), JobCancelled.class), l -> !l.isEmpty());
        assertThat((JobCancelled) cancelled.get(0).payload()).isEqualTo(new JobCancelled(job, "wrong pool", "ops"));
        assertThat(cancelled.get(0).seq()).isEqualTo(3);

        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/jobs/" + job + "/cancel")
                .then()
                .statusCode(409);
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/jobs/" + UUID.randomUUID() + "/cancel")
                .then()
                .statusCode(404);
        assertThat(given().auth()
                        .oauth2(TestAgent.ADMIN_TOKEN)
                        .get("/admin/jobs/" + job)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getString("state"))
                .isEqualTo("cancelled");
        // A claim for a cancelled job is ignored.
        TestAgent late = TestAgent.register("fleet-late", pool);
        UUID lateRun = claim(late, job, pool);
        Db db = new Db(dataSource);
        await().atMost(WAIT).until(() -> db.count("SELECT count(*) FROM proj_run WHERE run_id = ?", lateRun) == 1);
        assertThat(db.count("SELECT count(*) FROM job_grant WHERE run_id = ?", lateRun))
                .isZero();
    }

    @Test
    void adminEndpointsOfJobsRefuseCallersWithoutANamedToken() {
        given().contentType(ContentType.JSON)
                .body(Map.of("name", "x"))
                .post("/admin/campaigns")
                .then()
                .statusCode(401);
        given().auth()
                .oauth2("not-a-token")
                .contentType(ContentType.JSON)
                .body(Map.of("name", "x"))
                .post("/admin/campaigns")
                .then()
                .statusCode(401);
        given().get("/admin/campaigns/" + UUID.randomUUID()).then().statusCode(401);
        given().post("/admin/jobs/" + UUID.randomUUID() + "/cancel").then().statusCode(401);
        given().get("/admin/jobs/" + UUID.randomUUID()).then().statusCode(401);
    }

    @Test
    void anInvalidCampaignIsRefusedWithItsProblems() {
        JsonPath body = given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body(Map.of(
                        "name",
                        "bad",
                        "pools",
                        List.of("bad pool"),
                        "schedule",
                        "sometimes",
                        "spec",
                        Map.of("adapter", "reference")))
                .post("/admin/campaigns")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .extract()
                .jsonPath();
        List<String> specFields = List.of(
                "spec.benchmark",
                "spec.devices_per_node",
                "spec.nodes",
                "spec.repetitions",
                "spec.timeout_seconds",
                "spec.warmup_steps");
        List<String> all = new ArrayList<>(List.of("pools[0]", "schedule"));
        all.addAll(specFields);
        assertThat(body.getList("violations.field", String.class)).containsExactlyElementsOf(all);
        assertThat(given().auth()
                        .oauth2(TestAgent.ADMIN_TOKEN)
                        .contentType(ContentType.JSON)
                        .body(Map.of(
                                "name",
                                "no benchmark",
                                "pools",
                                List.of("cpu"),
                                "spec",
                                Map.of("adapter", "reference")))
                        .post("/admin/campaigns")
                        .then()
                        .statusCode(400)
                        .extract()
                        .jsonPath()
                        .getList("violations.field"))
                .containsExactlyElementsOf(specFields);
        Map<String, Object> noBenchmark = new HashMap<>(spec(Map.of()));
        noBenchmark.remove("benchmark");
        assertThat(given().auth()
                        .oauth2(TestAgent.ADMIN_TOKEN)
                        .contentType(ContentType.JSON)
                        .body(Map.of("name", "no benchmark", "pools", List.of("cpu"), "spec", noBenchmark))
                        .post("/admin/campaigns")
                        .then()
                        .statusCode(400)
                        .extract()
                        .jsonPath()
                        .getList("violations.field"))
                .containsExactly("spec.benchmark");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .contentType(ContentType.JSON)
                .body("{\"name\": ")
                .post("/admin/campaigns")
                .then()
                .statusCode(400)
                .body("violations[0].field", equalTo("$"));
        Map<String, List<String>> huge = new TreeMap<>();
        huge.put(
                "a",
                java.util.stream.IntStream.range(0, 40)
                        .mapToObj(Integer::toString)
                        .toList());
        huge.put(
                "b",
                java.util.stream.IntStream.range(0, 30)
                        .mapToObj(Integer::toString)
                        .toList());
        assertThat(given().auth()
                        .oauth2(TestAgent.ADMIN_TOKEN)
                        .contentType(ContentType.JSON)
                        .body(Map.of("name", "too big", "pools", List.of("cpu"), "spec", spec(huge)))
                        .post("/admin/campaigns")
                        .then()
                        .statusCode(400)
                        .extract()
                        .jsonPath()
                        .getString("violations[0].message"))
                .contains("1200 jobs");
    }

    @Test
    void aSecondReaperDoesNothingWhileOneHoldsTheLock() throws Exception {
        Db db = new Db(dataSource);
        String pool = pool("reaper");
        UUID job = uuids(submit(Map.of("name", "reaper", "pools", List.of(pool), "spec", spec(Map.of())))
                        .getList("job_ids", String.class))
                .get(0);
        claim(TestAgent.register("fleet-reaper", pool), job, pool);
        await().atMost(WAIT).until(() -> "assigned".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));

        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + FleetCommands.REAPER_LOCK + ")");
            }
            db.count(
                    "WITH u AS (UPDATE job SET lease_expires_at = now() - interval '1 minute' WHERE job_id = ? "
                            + "RETURNING 1) SELECT count(*) FROM u",
                    job);
            assertThat(fleet.reapExpiredLeases()).isZero();
            await().during(Duration.ofSeconds(1))
                    .atMost(WAIT)
                    .until(() -> "assigned".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));
            holder.commit();
        }
        await().atMost(WAIT).until(() -> "requested".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));
        // The relay publishes the outbox after the reaper's commit: wait for the record, then check it came once.
        List<Envelope> expired =
                await().atMost(WAIT).until(() -> onJobsTopic(List.of(job), JobLeaseExpired.class), l -> !l.isEmpty());
        assertThat(expired).hasSize(1);
    }

    @Test
    void outboxRowsAreMarkedSentAndARestartedRelayResendsWhatWasNotMarked() {
        Db db = new Db(dataSource);
        relay.stop();
        List<UUID> jobs;
        try {
            jobs = uuids(submit(Map.of("name", "relay", "pools", List.of(pool("relay")), "spec", spec(Map.of())))
                    .getList("job_ids", String.class));
            assertThat(db.rows(
                            "SELECT sent_at FROM outbox WHERE record_key = ?",
                            jobs.get(0).toString()))
                    .containsExactly(java.util.Collections.singletonList(null));
            assertThat(onJobsTopic(jobs, JobRequested.class)).isEmpty();
        } finally {
            relay.start();
        }
        await().atMost(WAIT)
                .until(() -> db.count(
                                "SELECT count(*) FROM outbox WHERE record_key = ? AND sent_at IS NOT NULL",
                                jobs.get(0).toString())
                        == 1);
        List<Envelope> once = onJobsTopic(jobs, JobRequested.class);
        assertThat(once).hasSize(1);

        // A crash after Kafka acknowledged but before the row was marked: the row is unsent again and goes out again.
        relay.stop();
        try {
            db.count(
                    "WITH u AS (UPDATE outbox SET sent_at = NULL WHERE record_key = ? RETURNING 1) SELECT count(*) FROM u",
                    jobs.get(0).toString());
        } finally {
            relay.start();
        }
        List<Envelope> twice =
                await().atMost(WAIT).until(() -> onJobsTopic(jobs, JobRequested.class), l -> l.size() >= 2);
        assertThat(twice).hasSize(2);
        assertThat(twice.get(1).eventId()).isEqualTo(twice.get(0).eventId());
        assertThat(db.count(
                        "SELECT count(*) FROM outbox WHERE record_key = ? AND sent_at IS NULL",
                        jobs.get(0).toString()))
                .isZero();
    }

    @Test
    void aScheduledCampaignIssuesItsJobsAgainWithNewIds() {
        Db db = new Db(dataSource);
        String pool = pool("nightly");
        JsonPath created = submit(Map.of(
                "name",
                "often",
                "pools",
                List.of(pool),
                "schedule",
                "PT2S",
                "spec",
                spec(Map.of("workers", List.of("0", "2")))));
        UUID campaign = UUID.fromString(created.getString("campaign_id"));
        try {
            await().atMost(WAIT)
                    .until(() ->
                            db.count("SELECT count(*) FROM job WHERE campaign_id = ? AND issue = 2", campaign) == 2);
        } finally {
            unschedule(campaign);
        }
        long issues = db.count("SELECT max(issue) FROM job WHERE campaign_id = ?", campaign);
        assertThat(db.one("SELECT schedule FROM campaign WHERE campaign_id = ?", campaign))
                .isNull();
        List<UUID> all = db.rows("SELECT job_id FROM job WHERE campaign_id = ? AND issue <= 2", campaign).stream()
                .map(r -> (UUID) r.get(0))
                .toList();
        assertThat(all).hasSize(4).doesNotHaveDuplicates();
        assertThat(await().atMost(WAIT).until(() -> onJobsTopic(all, JobRequested.class), l -> l.size() >= 4))
                .hasSize(4);
        // Unscheduled: no further issue. A campaign scheduled after the unscheduling and issued again since shows that
        // the schedule was checked more than a period later (one check issues every campaign that is due).
        UUID later = UUID.fromString(submit(Map.of(
                        "name",
                        "often too",
                        "pools",
                        List.of(pool("nightly")),
                        "schedule",
                        "PT2S",
                        "spec",
                        spec(Map.of())))
                .getString("campaign_id"));
        try {
            await().atMost(WAIT)
                    .until(() -> db.count("SELECT count(*) FROM job WHERE campaign_id = ? AND issue = 2", later) > 0);
        } finally {
            unschedule(later);
        }
        assertThat(db.count("SELECT max(issue) FROM job WHERE campaign_id = ?", campaign))
                .isEqualTo(issues);
    }

    private static void unschedule(UUID campaign) {
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .delete("/admin/campaigns/" + campaign + "/schedule")
                .then()
                .statusCode(200);
    }

    @Test
    void theCliSubmitsAYamlCampaignAndCancelsAJob() throws Exception {
        Path yaml = Files.createTempFile("campaign", ".yaml");
        Files.writeString(yaml, """
                name: cli sweep
                spec:
                  benchmark: reference-finetune
                  adapter: reference
                  parameters: {epochs: "1"}
                  matrix: {dataloader_num_workers: ["0", "2"]}
                  repetitions: 3
                  warmup_steps: 5
                  timeout_seconds: 900
                  environment: {}
                  nodes: 1
                  devices_per_node: 1
                """);
        String pools = pool("cli-a") + "," + pool("cli-b");
        Result submitted = cli("campaign", "submit", yaml.toString(), "--pools", pools);
        assertThat(submitted.exit()).as(submitted.output()).isZero();
        JsonPath created = new JsonPath(submitted.output());
        List<UUID> jobs = uuids(created.getList("job_ids", String.class));
        assertThat(jobs).hasSize(4);

        Result cancelled = cli("job", "cancel", jobs.get(0).toString(), "--reason", "not \"tonight\"");
        assertThat(cancelled.exit()).as(cancelled.output()).isZero();
        assertThat(new JsonPath(cancelled.output()).getString("state")).isEqualTo("cancelled");
        List<Envelope> relayed = await().atMost(WAIT)
                .until(() -> onJobsTopic(List.of(jobs.get(0)), JobCancelled.class), l -> !l.isEmpty());
        assertThat(((JobCancelled) relayed.get(0).payload()).reason()).isEqualTo("not \"tonight\"");
        assertThat(cli("job", "cancel", jobs.get(0).toString()).exit()).isEqualTo(1);
        Files.delete(yaml);
    }

    @Test
    void theCliSaysWhichFieldsOfARefusedCampaignAreWrong() throws Exception {
        Path yaml = Files.createTempFile("campaign", ".yaml");
        Files.writeString(yaml, """
                name: ""
                spec:
                  benchmark: reference-finetune
                  adapter: reference
                  repetitions: -1
                  warmup_steps: 0
                  timeout_seconds: 60
                  nodes: 1
                  devices_per_node: 1
                  colour: red
                """);
        Result refused = cli("campaign", "submit", yaml.toString(), "--pools", "ok,bad pool");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(new JsonPath(refused.output()).getList("violations.field", String.class))
                .containsExactly("name", "pools[1]", "spec.colour", "spec.repetitions");
        assertThat(refused.errors())
                .contains("podium-admin: HTTP 400: the request is not valid\n")
                .contains("\n  name: must not be blank\n")
                .contains("\n  pools[1]: must be a letter or digit")
                .contains("\n  spec.colour: unknown field\n")
                .contains("\n  spec.repetitions: must not be negative");
        Result missing = cli("job", "show", UUID.randomUUID().toString());
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.errors()).startsWith("podium-admin: HTTP 404: no job ");
        Files.delete(yaml);
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    private record Result(int exit, String output, String errors) {}

    private static Result cli(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", "podium-admin"));
        command.addAll(List.of(args));
        Path errors = Files.createTempFile("podium-admin", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(errors.toFile());
        pb.environment().put("PODIUM_ADMIN_URL", "http://localhost:" + RestAssured.port);
        pb.environment().put("PODIUM_ADMIN_TOKEN", TestAgent.ADMIN_TOKEN);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        String err = Files.readString(errors);
        Files.delete(errors);
        return new Result(exit, out.trim(), err);
    }
}
