package dev.podium.ingest.projection;

import dev.podium.events.model.Metric;
import dev.podium.events.run.RunCompleted;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Hardware use, so that pages never divide raw results: {@code proj_host_matmul} (per host, device and precision, the
 * best rate of a completed mamf run), {@code proj_run_hardware_use} (per run and metric stating its work, the share of
 * its host's matmul rate known when it ended, MFU and MBU per repetition, as sums) and {@code proj_hardware_use_cell}
 * (per key, metric, device and validity, those sums over the cell's runs). A run's rows are written once, when its
 * RunCompleted is applied, in position order, so replaying the store gives the same rows; a batch costs what its runs
 * bring, and the cells it touched are summed again from their runs' rows.
 */
@ApplicationScoped
public class HardwareUseProjection implements Projection {

    /** The tables; the cells are derived from the run rows, the run rows read the host rows. */
    static final List<String> TABLES = List.of("proj_hardware_use_cell", "proj_run_hardware_use", "proj_host_matmul");

    /** The batch's completed runs, in position order. */
    private static final class Pending {
        final List<RunCompleted> runs = new ArrayList<>();
        final Set<Touched.KeyMetricDevice> cells = new LinkedHashSet<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        if (event.envelope().payload() instanceof RunCompleted done) {
            touched.state(Pending.class, Pending::new).runs.add(done);
        }
    }

    /** Once the batch's run rows are written: each completed run's host matmul rate or hardware-use rows, in order. */
    @Override
    public void flush(Connection c, Touched touched) throws SQLException {
        Pending pending = touched.state(Pending.class, Pending::new);
        for (RunCompleted done : pending.runs) {
            Optional<HardwareUseRun> run = HardwareUseRun.read(c, done);
            if (run.isEmpty()) {
                continue;
            }
            HardwareUseRun r = run.get();
            if (r.isMatmul()) {
                HardwareUseRun.matmul(done).ifPresent(m -> upsertMatmul(c, r, m));
                continue;
            }
            Double matmul = hostMatmul(c, r);
            for (Metric m : done.metrics()) {
                Optional<HardwareUseRun.Row> row = r.row(m, matmul);
                if (row.isPresent()) {
                    HardwareUseRun.insert(c, done.runId(), m.name(), row.get());
                    pending.cells.add(new Touched.KeyMetricDevice(r.keyId(), m.name(), r.deviceId()));
                }
            }
        }
        pending.runs.clear();
    }

    /** Once the batch's rows are written: the cells it added to, and those of runs it touched (retractions). */
    void recompute(Connection c, Touched touched) throws SQLException {
        Set<Touched.KeyMetricDevice> cells = new LinkedHashSet<>(touched.state(Pending.class, Pending::new).cells);
        cells.addAll(touched.devices());
        cells.addAll(HardwareUseCells.ofRuns(c, touched.runs()));
        HardwareUseCells.recompute(c, cells);
    }

    /** Every cell, from the run rows (after a rebuild's replay). */
    void recomputeAll(Connection c) throws SQLException {
        HardwareUseCells.recomputeAll(c);
    }

    private static void upsertMatmul(Connection c, HardwareUseRun r, Metric m) {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_host_matmul AS h (host_key, device_id, precision, run_id, tflops, ci95_low, ci95_high)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (host_key, device_id, precision) DO UPDATE SET run_id = excluded.run_id,
                    tflops = excluded.tflops, ci95_low = excluded.ci95_low, ci95_high = excluded.ci95_high
                WHERE excluded.tflops > h.tflops""")) {
            ps.setString(1, r.hostKey());
            ps.setString(2, r.deviceId());
            ps.setString(3, r.precision());
            ps.setObject(4, r.runId());
            ps.setDouble(5, m.statistics().mean());
            ps.setDouble(6, m.statistics().ci95Low());
            ps.setDouble(7, m.statistics().ci95High());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store the matmul rate of run " + r.runId(), e);
        }
    }

    private static Double hostMatmul(Connection c, HardwareUseRun r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT tflops FROM proj_host_matmul WHERE host_key = ? AND device_id = ? AND precision = ?""")) {
            ps.setString(1, r.hostKey());
            ps.setString(2, r.deviceId());
            ps.setString(3, r.precision());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getDouble(1) : null;
            }
        }
    }
}
