package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
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
 * A run's series are stored downsampled as batches bring them: a long series keeps at most 2,000 points spread evenly
 * from its first sample to its last, the head counts every sample and event, the same points whatever the batching, and
 * a rebuild gives the same rows.
 */
@QuarkusTest
class SeriesProjectionIT {

    private static final int EVENTS = 12;
    private static final int PER_EVENT = 1_000;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aLongSeriesIsStoredDownsampledAndEvenly() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("series");
        ComparisonKey key = SampleEvents.referenceKey(3_000_000 + new Random().nextInt(1_000_000));
        UUID run = UUID.randomUUID();
        agent.sendAndWait(
                db, List.of(SampleEvents.runStarted(run, agent.agentId(), "nvidia-h100-sxm", key, Instant.now())));
        // Half the events one batch at a time, the other half together: the stride doubles across batches and within
        // one.
        for (int e = 0; e < EVENTS / 2; e++) {
            agent.sendAndWait(db, List.of(power(run, agent, e)));
        }
        List<Envelope> rest = new ArrayList<>();
        for (int e = EVENTS / 2; e < EVENTS; e++) {
            rest.add(power(run, agent, e));
        }
        agent.sendAndWait(db, rest);

        long total = (long) EVENTS * PER_EVENT;
        assertThat(db.rows(
                        "SELECT samples, events, stride FROM proj_run_series_head WHERE run_id = ? AND series = 'POWER'",
                        run))
                .containsExactly(List.of(total, EVENTS, 8L));
        List<List<Object>> points = db.rows(
                "SELECT idx, t, device FROM proj_run_series_point WHERE run_id = ? AND series = 'POWER' ORDER BY idx",
                run);
        assertThat(points)
                .hasSize((int) (total / 8))
                .allSatisfy(p -> assertThat((Long) p.get(0) % 8).isZero());
        assertThat(points.get(0)).containsExactly(0L, 0.0, 0);
        assertThat((Double) points.get(points.size() - 1).get(1)).isEqualTo(total - 8.0);
        // Every sample counts in the power, not only the kept ones: devices 0 and 1 alternate at 100 and 300 W.
        assertThat(db.rows("SELECT system_watts, samples FROM proj_run_power WHERE run_id = ?", run))
                .containsExactly(List.of(400.0, total));

        List<String> heads = db.dump("proj_run_series_head");
        List<String> kept = db.dump("proj_run_series_point");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_run_series_head")).containsExactlyElementsOf(heads);
        assertThat(db.dump("proj_run_series_point")).containsExactlyElementsOf(kept);
    }

    /** Event {@code e} of the run's POWER series: samples at t = their number, devices 0 and 1 by turns. */
    private static Envelope power(UUID run, TestAgent agent, int e) {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < PER_EVENT; i++) {
            int n = e * PER_EVENT + i;
            samples.add(new Sample(n, n % 2 == 0 ? 100 : 300, 0, n % 2));
        }
        return SampleEvents.metricSampled(run, agent.agentId(), 2 + e, SeriesKind.POWER, "W", samples);
    }
}
