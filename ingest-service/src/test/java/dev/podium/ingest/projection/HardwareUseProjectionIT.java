package dev.podium.ingest.projection;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.WorkPerUnit;
import dev.podium.events.testing.SampleEvents;
import dev.podium.ingest.command.CommandAppender;
import dev.podium.ingest.testing.Db;
import dev.podium.ingest.testing.HardwareUseRuns;
import dev.podium.ingest.testing.Retractions;
import dev.podium.ingest.testing.TestAgent;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A mamf run sets its host's matmul rate; a later run on that host whose rate metric states its work gets its share of
 * that rate, its MFU against the device's dense datasheet peak and its MBU against the peak bandwidth, per repetition;
 * a run stating nothing, or a run on a host with no matmul rate, gets no share; a retraction takes a run out of its
 * cell; a rebuild gives the same rows.
 */
@QuarkusTest
class HardwareUseProjectionIT {

    private static final String H100 = "nvidia-h100-sxm-80gb";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CommandAppender appender;

    @Test
    void aRunStatingItsWorkGetsItsShareOfItsHostsMeasuredMatmulAndOfTheDatasheetPeak() throws Exception {
        Db db = new Db(dataSource);
        TestAgent agent = TestAgent.register("hw-use");
        ComparisonKey mamf = HardwareUseRuns.key("podium-mamf", "microbenchmark");
        ComparisonKey training = HardwareUseRuns.key("podium-reference", "training");
        UUID matmulRun = UUID.randomUUID();
        UUID weaker = UUID.randomUUID();
        UUID stated = UUID.randomUUID();
        UUID silent = UUID.randomUUID();

        // 800 TFLOP/s on this host, then a weaker 700 that does not replace it.
        String id = agent.agentId();
        agent.sendAndWait(db, HardwareUseRuns.matmul(matmulRun, id, H100, mamf, List.of(790.0, 800.0, 810.0)));
        agent.sendAndWait(db, HardwareUseRuns.matmul(weaker, id, H100, mamf, List.of(699.0, 700.0, 701.0)));
        assertThat(db.rows(
                        "SELECT run_id, tflops FROM proj_host_matmul WHERE device_id = ? AND precision = 'bf16'"
                                + " AND run_id IN (?, ?)",
                        H100,
                        matmulRun,
                        weaker))
                .containsExactly(List.of(matmulRun, 800.0));

        // 4 TFLOP a sample at 100 samples/s on one accelerator: 400 TFLOP/s, half the host's 800 and 400/989 of the
        // peak; 16.75 GB a sample: 1.675 TB/s, half of the H100's 3.35.
        agent.sendAndWait(
                db,
                HardwareUseRuns.stated(
                        stated,
                        id,
                        H100,
                        training,
                        List.of(99.0, 100.0, 101.0),
                        new WorkPerUnit(4e12, 1.675e10, WorkPerUnit.Basis.DECLARED)));
        agent.sendAndWait(db, HardwareUseRuns.stated(silent, id, H100, training, List.of(99.0, 100.0, 101.0), null));
        List<List<Object>> cell = db.rows("""
                SELECT runs, basis, matmul_runs, matmul_sum, share_n, share_sum, peak_tflops, mfu_n, mfu_sum, peak_tbps,
                       mbu_sum FROM proj_hardware_use_cell WHERE key_id = ? AND metric = ? AND device_id = ?""", training.id(), SampleEvents.THROUGHPUT_METRIC, H100);
        assertThat(cell).hasSize(1);
        List<Object> row = cell.get(0);
        assertThat(row.subList(0, 5)).containsExactly(1, "DECLARED", 1, 800.0, 3);
        assertThat((double) row.get(5)).isCloseTo(1.5, within(1e-9));
        assertThat(row.get(6)).isEqualTo(989.0);
        assertThat(row.get(7)).isEqualTo(3);
        assertThat((double) row.get(8)).isCloseTo(3 * 400 / 989.0, within(1e-9));
        assertThat(row.get(9)).isEqualTo(3.35);
        assertThat((double) row.get(10)).isCloseTo(1.5, within(1e-9));
        assertThat(db.count("SELECT count(*) FROM proj_run_hardware_use WHERE run_id = ?", silent))
                .isZero();

        List<String> cells = db.dump("proj_hardware_use_cell");
        List<String> runs = db.dump("proj_run_hardware_use");
        List<String> hosts = db.dump("proj_host_matmul");
        given().auth()
                .oauth2(TestAgent.ADMIN_TOKEN)
                .post("/admin/rebuild")
                .then()
                .statusCode(200);
        assertThat(db.dump("proj_hardware_use_cell")).containsExactlyElementsOf(cells);
        assertThat(db.dump("proj_run_hardware_use")).containsExactlyElementsOf(runs);
        assertThat(db.dump("proj_host_matmul")).containsExactlyElementsOf(hosts);

        Retractions.retract(dataSource, appender, stated);
        assertThat(db.count(
                        "SELECT count(*) FROM proj_hardware_use_cell WHERE key_id = ? AND device_id = ?",
                        training.id(),
                        H100))
                .isZero();
    }
}
