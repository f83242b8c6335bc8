package dev.podium.ingest.projection;

import dev.podium.ingest.store.Columns;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * {@code proj_hardware_use_cell}: per key, metric, device and validity, the sums of the run rows of the cell's completed,
 * not retracted runs. Summed as numeric, which is exact for the doubles stored, so the order runs are read in does not
 * change a row and a rebuild gives the same rows.
 */
final class HardwareUseCells {

    /** The cells' rows summed again from their runs: one DELETE and one INSERT ... SELECT for the batch. */
    private static final Columns<Touched.KeyMetricDevice> DEVICES = Columns.of(Touched.KeyMetricDevice.class);

    private static final String CELLS = DEVICES.unnest("t");

    private static final String SUMS = """
            INSERT INTO proj_hardware_use_cell (key_id, metric, device_id, valid, runs, basis, matmul_runs, matmul_sum,
                share_n, share_sum, share_sumsq, peak_tflops, mfu_n, mfu_sum, mfu_sumsq, peak_tbps, mbu_n, mbu_sum,
                mbu_sumsq)
            SELECT h.key_id, h.metric, h.device_id, coalesce(r.valid, false), count(*),
                   CASE WHEN min(h.basis) = max(h.basis) THEN min(h.basis) ELSE 'MIXED' END,
                   count(h.matmul_tflops), coalesce(sum(h.matmul_tflops::numeric), 0)::float8,
                   sum(h.share_n), sum(h.share_sum::numeric)::float8, sum(h.share_sumsq::numeric)::float8,
                   max(h.peak_tflops),
                   sum(h.mfu_n), sum(h.mfu_sum::numeric)::float8, sum(h.mfu_sumsq::numeric)::float8,
                   max(h.peak_tbps),
                   sum(h.mbu_n), sum(h.mbu_sum::numeric)::float8, sum(h.mbu_sumsq::numeric)::float8
            FROM proj_run_hardware_use h JOIN proj_run r ON r.run_id = h.run_id
            WHERE r.status = 'completed' AND NOT r.retracted AND %s
            GROUP BY h.key_id, h.metric, h.device_id, coalesce(r.valid, false)""";

    private HardwareUseCells() {}

    /** The cells the given runs have rows in (a retraction takes its run out of them). */
    static List<Touched.KeyMetricDevice> ofRuns(Connection c, Set<UUID> runs) throws SQLException {
        List<Touched.KeyMetricDevice> out = new ArrayList<>();
        if (runs.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT key_id, metric, device_id FROM proj_run_hardware_use WHERE run_id = ANY(?)")) {
            ps.setArray(1, c.createArrayOf("uuid", runs.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Touched.KeyMetricDevice(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
            }
        }
        return out;
    }

    static void recompute(Connection c, Set<Touched.KeyMetricDevice> cells) throws SQLException {
        if (cells.isEmpty()) {
            return;
        }
        List<Touched.KeyMetricDevice> list = new ArrayList<>(cells);
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM proj_hardware_use_cell x USING " + CELLS
                + " WHERE x.key_id = t.key_id AND x.metric = t.metric AND x.device_id = t.device_id")) {
            DEVICES.bind(ps, 1, list);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(SUMS.formatted(
                "(h.key_id, h.metric, h.device_id) IN (SELECT key_id, metric, device_id FROM " + CELLS + ")"))) {
            DEVICES.bind(ps, 1, list);
            ps.executeUpdate();
        }
    }

    static void recomputeAll(Connection c) throws SQLException {
        try (PreparedStatement del = c.prepareStatement("DELETE FROM proj_hardware_use_cell");
                PreparedStatement ins = c.prepareStatement(SUMS.formatted("true"))) {
            del.executeUpdate();
            ins.executeUpdate();
        }
    }
}
