package dev.podium.ingest.command;

import static dev.podium.ingest.testing.FleetJobs.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.Reproductions;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** With the schedule on for a pool, a reproduction that went stale there is re-run once, and only once. */
@QuarkusTest
class StaleRerunScheduleIT {

    /** The pool the test profile schedules re-runs for (application.properties). */
    static final String POOL = "stale-schedule";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aStaleReproductionIsRerunOnceByTheSchedule() {
        Db db = new Db(dataSource);
        UUID reproduction = Reproductions.reproduce(POOL);
        Reproductions.startGranted(db, Reproductions.job(db, reproduction, POOL), POOL, "2.2.2", "CUDA 12.4");
        assertThat(db.count("SELECT count(*) FROM claim_reproduction WHERE rerun_of = ?", reproduction))
                .isZero();
        UUID revealing = Reproductions.startGranted(db, Reproductions.otherJob(POOL), POOL, "2.5.0", "CUDA 12.4");

        await().atMost(WAIT)
                .until(() -> db.count("SELECT count(*) FROM claim_reproduction WHERE rerun_of = ?", reproduction) == 1);
        assertThat(db.one("SELECT stale_run_id FROM proj_reproduction_staleness WHERE campaign_id = ?", reproduction))
                .isEqualTo(revealing);
        assertThat(db.rows(
                        "SELECT actor, array_to_string(pools, ',') FROM claim_reproduction WHERE rerun_of = ?",
                        reproduction))
                .containsExactly(List.of(StaleRerunSchedule.ACTOR, POOL));
        // Until a second stale reproduction has been re-run too, later ticks leave the first alone: it has been re-run.
        UUID second = Reproductions.reproduce(POOL);
        Reproductions.startGranted(db, Reproductions.job(db, second, POOL), POOL, "2.5.0", "CUDA 12.4");
        Reproductions.startGranted(db, Reproductions.otherJob(POOL), POOL, "2.6.0", "CUDA 12.4");
        await().atMost(WAIT)
                .until(() -> db.count("SELECT count(*) FROM claim_reproduction WHERE rerun_of = ?", second) == 1);
        assertThat(db.count("SELECT count(*) FROM claim_reproduction WHERE rerun_of = ?", reproduction))
                .isEqualTo(1);
    }
}
