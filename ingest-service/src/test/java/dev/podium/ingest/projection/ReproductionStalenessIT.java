package dev.podium.ingest.projection;

import static dev.podium.ingest.testing.FleetJobs.WAIT;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.FleetJobs;
import dev.podium.ingest.testing.Reproductions;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A reproduction goes stale when a later granted run in one of its pools, of the same benchmark, reports another
 * framework, driver or runtime version; nothing an agent says about another pool, a job it was not granted or a run of
 * its own counts, and however many versions appear the reproduction keeps one row per pool, its first difference.
 */
@QuarkusTest
class ReproductionStalenessIT {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aNewFrameworkInTheReproducingPoolMarksItStaleOnceAndLiesFromElsewhereDoNot() {
        Db db = new Db(dataSource);
        String poolA = FleetJobs.pool("stale-a");
        String poolB = FleetJobs.pool("stale-b");
        UUID reproduction = Reproductions.reproduce(poolA + "," + poolB);
        UUID basisJob = Reproductions.job(db, reproduction, poolA);
        UUID basisRun = Reproductions.startGranted(db, basisJob, poolA, "2.2.2", "CUDA 12.4");
        await().atMost(WAIT)
                .until(() ->
                        db.count("SELECT count(*) FROM proj_reproduction_staleness WHERE campaign_id = ?", reproduction)
                                == 1);
        assertThat(db.rows(
                        "SELECT pool, framework, framework_version, runtime, basis_run_id::text, stale_since "
                                + "FROM proj_reproduction_staleness WHERE campaign_id = ?",
                        reproduction))
                .containsExactly(Arrays.asList(poolA, "pytorch", "2.2.2", "CUDA 12.4", basisRun.toString(), null));

        // Pool B's agent reports a new torch on its own granted job, and starts a job of pool A it was never granted.
        UUID elsewhere = Reproductions.startGranted(db, Reproductions.otherJob(poolB), poolB, "2.9.0", "CUDA 13.0");
        TestAgent b = TestAgent.register("stale-b", poolB);
        UUID notGranted = UUID.randomUUID();
        b.sendAndWait(
                db, List.of(Reproductions.started(notGranted, Reproductions.otherJob(poolA), b, "2.9.0", "CUDA 13.0")));
        // An agent of pool A reports a new torch on a run of its own, outside any job.
        TestAgent a = TestAgent.register("stale-a", poolA);
        UUID own = UUID.randomUUID();
        a.sendAndWait(
                db,
                List.of(Reproductions.withVersions(
                        SampleEvents.runStarted(
                                own, a.agentId(), "nvidia-h100-pcie-80gb", Reproductions.KEY, Instant.now()),
                        "2.9.0",
                        "CUDA 13.0")));
        assertThat(db.one("SELECT status FROM proj_run WHERE run_id = ?", notGranted))
                .isEqualTo("superseded");
        assertThat(db.count("SELECT count(*) FROM proj_run WHERE run_id IN (?, ?)", elsewhere, own))
                .isEqualTo(2);
        assertThat(db.one("SELECT stale_since FROM proj_reproduction_staleness WHERE campaign_id = ?", reproduction))
                .isNull();

        // A later granted run in pool A of another campaign reports torch 2.5.0: stale, from that run's start.
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        UUID revealing = Reproductions.startGranted(db, Reproductions.otherJob(poolA), poolA, "2.5.0", "CUDA 12.4", at);
        await().atMost(WAIT)
                .until(() -> db.count(
                                "SELECT count(*) FROM proj_reproduction_staleness WHERE campaign_id = ? "
                                        + "AND stale_since IS NOT NULL",
                                reproduction)
                        == 1);
        List<Object> stale =
                List.of(poolA, "framework", "pytorch 2.2.2", "pytorch 2.5.0", Timestamp.from(at), revealing.toString());
        String staleRow = "SELECT pool, stale_component, stale_from, stale_to, stale_since, stale_run_id::text "
                + "FROM proj_reproduction_staleness WHERE campaign_id = ?";
        assertThat(db.rows(staleRow, reproduction)).containsExactly(stale);

        // Many more versions later: still one row for the pool, still its first difference.
        for (int i = 0; i < 5; i++) {
            Reproductions.startGranted(db, Reproductions.otherJob(poolA), poolA, "3." + i, "CUDA 14." + i);
        }
        assertThat(db.rows(staleRow, reproduction)).containsExactly(stale);
        assertThat(db.count("SELECT count(*) FROM proj_reproduction_staleness WHERE campaign_id = ?", reproduction))
                .isEqualTo(1);

        List<String> rows = db.dump("proj_reproduction_staleness");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_reproduction_staleness")).containsExactlyElementsOf(rows);
    }
}
