package dev.podium.ingest.command;

import static dev.podium.ingest.testing.FleetJobs.WAIT;
import static dev.podium.ingest.testing.FleetJobs.granted;
import static dev.podium.ingest.testing.FleetJobs.heartbeat;
import static dev.podium.ingest.testing.FleetJobs.onJobsTopic;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.job.JobLeaseExpired;
import dev.podium.ingest.heartbeat.HeartbeatConsumer;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.FleetJobs.Granted;
import dev.podium.ingest.testing.Kafka;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The reaper after the command side starts, as after an ingest outage: leases that ran out while it was down are not
 * expired before one lease (3 s in tests) has passed and the heartbeats that waited on their topic have been read. The
 * test stops and starts the timers and the heartbeat consumer of the running service, as its lifecycle does.
 */
@QuarkusTest
class ReaperGraceIT {

    /** More than one reaper tick (300 ms in tests), so that a tick begun before the stop has ended. */
    private static final Duration TICK = Duration.ofSeconds(1);

    private static final Duration LEASE = Duration.ofSeconds(3);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    JobTimers timers;

    @Inject
    HeartbeatConsumer heartbeats;

    @Test
    void aLeaseThatRanOutWhileIngestWasDownIsNotExpiredUntilALeaseAfterStart() {
        Db db = new Db(dataSource);
        Granted granted = granted("grace");
        UUID job = granted.job();
        timers.stop();
        double started;
        try {
            await().pollDelay(TICK).until(() -> true);
            db.execute("UPDATE job SET lease_expires_at = now() - interval '1 minute' WHERE job_id = ?", job);
            started = ((Number) db.one("SELECT extract(epoch FROM clock_timestamp())::float8")).doubleValue();
        } finally {
            timers.start(heartbeats::caughtUp);
        }

        await().atMost(WAIT).until(() -> "requested".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));
        double reapedAfter =
                ((Number) db.one("SELECT extract(epoch FROM updated_at)::float8 FROM job WHERE job_id = ?", job))
                                .doubleValue()
                        - started;
        assertThat(reapedAfter).as("seconds from start to the expiry").isGreaterThanOrEqualTo(LEASE.toSeconds());
        assertThat(await().atMost(WAIT)
                        .until(() -> onJobsTopic(List.of(job), JobLeaseExpired.class), l -> !l.isEmpty()))
                .hasSize(1);
        cancel(job);
    }

    @Test
    void aHeartbeatWaitingOnItsTopicRenewsTheLeaseBeforeTheReaperLooks() throws Exception {
        Db db = new Db(dataSource);
        Granted granted = granted("catchup");
        UUID job = granted.job();
        timers.stop();
        heartbeats.stop();
        try {
            try {
                await().pollDelay(TICK).until(() -> true);
                db.execute("UPDATE job SET lease_expires_at = now() - interval '1 minute' WHERE job_id = ?", job);
                // The agent beat while ingest was down; its heartbeat waits on podium.heartbeats.
                Kafka.send(List.of(heartbeat(granted.agent(), job, granted.run(), 1)));
            } finally {
                timers.start(heartbeats::caughtUp);
            }
            // A lease and more pass with the heartbeat consumer still behind: the reaper must still wait.
            await().during(LEASE.plus(TICK))
                    .atMost(WAIT)
                    .until(() -> "assigned".equals(db.one("SELECT state FROM job WHERE job_id = ?", job)));
        } finally {
            heartbeats.start();
        }

        await().atMost(WAIT).until(heartbeats::caughtUp);
        assertThat(db.rows(
                        "SELECT state, lease_epoch, lease_expires_at > clock_timestamp() FROM job WHERE job_id = ?",
                        job))
                .as("the job once the waiting heartbeat was read")
                .containsExactly(List.of("assigned", 1, true));
        assertThat(onJobsTopic(List.of(job), JobLeaseExpired.class)).isEmpty();
        cancel(job);
    }

    private static void cancel(UUID job) {
        given().auth().oauth2(TestAgent.ADMIN_TOKEN).post("/admin/jobs/" + job + "/cancel");
    }
}
