package dev.podium.ingest.command;

import static dev.podium.ingest.testing.FleetJobs.WAIT;
import static dev.podium.ingest.testing.FleetJobs.claim;
import static dev.podium.ingest.testing.FleetJobs.heartbeat;
import static dev.podium.ingest.testing.FleetJobs.onJobsTopic;
import static dev.podium.ingest.testing.FleetJobs.pool;
import static dev.podium.ingest.testing.FleetJobs.spec;
import static dev.podium.ingest.testing.FleetJobs.submit;
import static dev.podium.ingest.testing.FleetJobs.uuids;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * Agents that try to hold more than their share of the fleet, each correctly signed by an enrolled key of the job's pool:
 * one that keeps renewing past its job's deadline, one run stream that claims two jobs, and one agent that claims more
 * jobs than the cap allows (tests run with a 3 s lease and the default cap of 4).
 */
@QuarkusTest
class LeaseLimitsIT {

    /** Longer than any deadline of these tests and their reaper, short enough that a lease without end fails soon. */
    private static final Duration PAST_DEADLINE = Duration.ofSeconds(20);

    @Inject
    AgroalDataSource dataSource;

    @Test
    void anAgentThatKeepsRenewingLosesTheJobAtTheDeadlineItsSpecGives() {
        Db db = new Db(dataSource);
        String pool = pool("deadline");
        // 1 s a repetition, 2 repetitions, and one 3 s lease of slack: the deadline is 5 s after the grant.
        UUID job = uuids(submit(Map.of("name", "deadline", "pools", List.of(pool), "spec", spec(Map.of(), 1, 2)))
                        .getList("job_ids", String.class))
                .get(0);
        TestAgent agent = TestAgent.register("fleet-overrun", pool);
        UUID run = claim(agent, job, pool);
        await().atMost(WAIT).until(() -> "assigned".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));
        assertThat(((Number) db.one("""
                                SELECT extract(epoch FROM j.lease_deadline - g.granted_at)::float8
                                FROM job j JOIN job_grant g USING (job_id, lease_epoch) WHERE j.job_id = ?""", job)).doubleValue())
                .as("seconds from grant to deadline")
                .isCloseTo(5.0, org.assertj.core.data.Offset.offset(0.1));

        // The agent beats twice a second for as long as it likes; the lease never reaches past the deadline.
        await().atMost(PAST_DEADLINE).pollInterval(Duration.ofMillis(500)).until(() -> {
            Kafka.send(List.of(heartbeat(agent, job, run, 1)));
            assertThat(db.count("SELECT count(*) FROM job WHERE job_id = ? AND lease_expires_at > lease_deadline", job))
                    .as("leases past the deadline")
                    .isZero();
            return "requested".equals(db.one("SELECT state FROM job WHERE job_id = ?", job));
        });
        assertThat(db.one("SELECT lease_epoch FROM job WHERE job_id = ?", job)).isEqualTo(2);
        assertThat(await().atMost(WAIT)
                        .until(() -> onJobsTopic(List.of(job), JobLeaseExpired.class), l -> !l.isEmpty()))
                .extracting(Envelope::payload)
                .containsExactly(new JobLeaseExpired(job, run, agent.agentId(), 1));
        cancel(job);
    }

    @Test
    void aRunStreamThatClaimsASecondJobIsNotGrantedIt() {
        Db db = new Db(dataSource);
        String pool = pool("onerun");
        List<UUID> jobs = uuids(submit(
                        Map.of("name", "onerun", "pools", List.of(pool), "spec", spec(Map.of("p", List.of("1", "2")))))
                .getList("job_ids", String.class));
        TestAgent agent = TestAgent.register("fleet-onerun", pool);
        UUID run = claim(agent, jobs.get(0), pool);
        await().atMost(WAIT).until(() -> db.count("SELECT count(*) FROM job_grant WHERE run_id = ?", run) == 1);

        // The same run stream, next seq, claims the other job: a well-formed, correctly signed JobClaimed.
        Kafka.send(List.of(agent.signed(Envelope.of(
                TimeOrderedIds.next(),
                StreamId.run(run),
                2,
                agent.agentId(),
                Instant.now(),
                new JobClaimed(run, jobs.get(1), agent.agentId(), pool)))));
        await().atMost(WAIT)
                .until(() -> db.count("SELECT count(*) FROM event_store WHERE stream_id = ? AND seq = 2", "run/" + run)
                        == 1);
        assertThat(db.rows("SELECT job_id FROM job_grant WHERE run_id = ?", run))
                .containsExactly(List.of(jobs.get(0)));
        assertThat(db.one("SELECT state FROM job WHERE job_id = ?", jobs.get(1)))
                .isEqualTo("requested");

        UUID other = claim(TestAgent.register("fleet-onerun-other", pool), jobs.get(1), pool);
        await().atMost(WAIT).until(() -> db.count("SELECT count(*) FROM job_grant WHERE run_id = ?", other) == 1);
        jobs.forEach(LeaseLimitsIT::cancel);
    }

    @Test
    void anAgentClaimingMoreJobsThanTheCapIsGrantedOnlyUpToIt() {
        Db db = new Db(dataSource);
        String pool = pool("greedy");
        List<UUID> jobs = uuids(submit(Map.of(
                        "name",
                        "greedy",
                        "pools",
                        List.of(pool),
                        "spec",
                        spec(Map.of("p", List.of("1", "2", "3", "4", "5", "6")))))
                .getList("job_ids", String.class));
        TestAgent greedy = TestAgent.register("fleet-greedy", pool);
        // Six claims of six run streams in one send, so that the batch that grants them holds several.
        List<UUID> runs = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> claims = new ArrayList<>();
        for (UUID job : jobs) {
            UUID run = UUID.randomUUID();
            runs.add(run);
            claims.add(greedy.signed(SampleEvents.jobClaimed(run, job, greedy.agentId(), pool, Instant.now())));
        }
        Kafka.send(claims);
        String[] runIds = runs.stream().map(UUID::toString).toArray(String[]::new);
        await().atMost(WAIT)
                .until(() ->
                        db.count("SELECT count(*) FROM proj_run WHERE run_id = ANY(?::uuid[])", (Object) runIds) == 6);
        assertThat(db.count("SELECT count(*) FROM job_grant WHERE agent_id = ?", greedy.agentId()))
                .as("grants to the greedy agent")
                .isEqualTo(4);

        // Another agent of the pool is granted a job the greedy one could not hold.
        List<UUID> offered = jobs.stream()
                .filter(j -> db.count("SELECT count(*) FROM job_grant WHERE job_id = ?", j) == 0)
                .toList();
        assertThat(offered).hasSize(2);
        TestAgent fair = TestAgent.register("fleet-fair", pool);
        UUID fairRun = claim(fair, offered.get(0), pool);
        await().atMost(WAIT)
                .until(() ->
                        !onJobsTopic(List.of(offered.get(0)), JobAssigned.class).isEmpty());
        assertThat(db.rows("SELECT run_id FROM job WHERE job_id = ?", offered.get(0)))
                .containsExactly(List.of(fairRun));
        jobs.forEach(LeaseLimitsIT::cancel);
    }

    /** Ends a job now rather than leave its lease to the reaper while other test classes run. */
    private static void cancel(UUID job) {
        given().auth().oauth2(TestAgent.ADMIN_TOKEN).post("/admin/jobs/" + job + "/cancel");
    }
}
