package dev.podium.ingest.projection;

import dev.podium.events.device.Peaks;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Scope;
import dev.podium.events.model.WorkPerUnit;
import dev.podium.events.run.RunCompleted;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A completed run as hardware use sees it: its host, device, key and precision from its run row, and what each of its
 * rate metrics that states its work gives per repetition against the host's matmul rate and the device's peaks.
 */
record HardwareUseRun(
        UUID runId, String hostKey, String deviceId, String keyId, String precision, int deviceCount, boolean matmul) {

    private static final double TERA = 1e12;

    /** One run row's sums: per repetition share, MFU and MBU, with the denominators they were taken against. */
    record Row(
            String keyId,
            String deviceId,
            String basis,
            Double matmulTflops,
            Sums share,
            Double peakTflops,
            Sums mfu,
            Double peakTbps,
            Sums mbu) {}

    /** n, sum and sum of squares of per-repetition ratios. */
    record Sums(int n, double sum, double sumsq) {

        static final Sums NONE = new Sums(0, 0, 0);

        /** The ratios of {@code perAccelerator} (each repetition's rate of work a second) to {@code denominator}. */
        static Sums of(List<Double> perAccelerator, Double denominator) {
            if (denominator == null || !(denominator > 0)) {
                return NONE;
            }
            int n = 0;
            double sum = 0;
            double sumsq = 0;
            for (double v : perAccelerator) {
                double r = v / denominator;
                if (Double.isFinite(r)) {
                    n++;
                    sum += r;
                    sumsq += r * r;
                }
            }
            return new Sums(n, sum, sumsq);
        }
    }

    /** The completed, not retracted run with a host, device and key; empty for anything else. */
    static Optional<HardwareUseRun> read(Connection c, RunCompleted done) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.host_key, r.device_id, r.key_id, k.dimensions ->> 'precision' AS precision, r.device_count
                FROM proj_run r JOIN proj_comparison_key k ON k.key_id = r.key_id
                WHERE r.run_id = ? AND r.status = 'completed' AND NOT r.retracted
                  AND r.host_key IS NOT NULL AND r.device_id IS NOT NULL""")) {
            ps.setObject(1, done.runId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                int count = rs.getInt("device_count");
                int devices = rs.wasNull() || count < 1 ? 1 : count;
                return Optional.of(new HardwareUseRun(
                        done.runId(),
                        rs.getString("host_key"),
                        rs.getString("device_id"),
                        rs.getString("key_id"),
                        String.valueOf(rs.getString("precision")),
                        devices,
                        matmul(done).isPresent()));
            }
        }
    }

    boolean isMatmul() {
        return matmul;
    }

    /** The run's matmul rate, per accelerator, when it has a positive one. */
    static Optional<Metric> matmul(RunCompleted done) {
        return done.metrics().stream()
                .filter(m -> m.name().equals(WorkPerUnit.MATMUL_METRIC) && m.statistics() != null)
                .filter(m -> m.statistics().mean() > 0
                        && Double.isFinite(m.statistics().mean()))
                .findFirst();
    }

    /**
     * The row of a rate metric that states its work: each repetition's FLOP/s (bytes/s) per accelerator, the metric's
     * value times the work per unit, divided by the run's accelerators unless the metric is per accelerator already.
     */
    Optional<Row> row(Metric m, Double hostMatmulTflops) {
        WorkPerUnit w = m.work();
        if (w == null || m.values() == null || m.values().isEmpty() || !m.unit().endsWith("/s")) {
            return Optional.empty();
        }
        int devices = m.scope() == Scope.PER_ACCELERATOR ? 1 : deviceCount;
        Peaks.DevicePeaks peaks = Peaks.of(deviceId) instanceof Peaks.Lookup.Found f ? f.peaks() : null;
        Double peakTflops = peaks == null ? null : peakTflops(peaks);
        Double peakTbps = peaks == null ? null : peaks.bandwidth().teraBytesPerSecond();
        List<Double> flops = perAccelerator(m.values(), w.flops(), devices);
        List<Double> bytes = perAccelerator(m.values(), w.bytes(), devices);
        Sums share = Sums.of(flops, hostMatmulTflops == null ? null : hostMatmulTflops * TERA);
        Sums mfu = Sums.of(flops, peakTflops == null ? null : peakTflops * TERA);
        Sums mbu = Sums.of(bytes, peakTbps == null ? null : peakTbps * TERA);
        if (w.flops() == null && mbu.n() == 0) {
            return Optional.empty();
        }
        return Optional.of(new Row(
                keyId,
                deviceId,
                w.basis().name(),
                share.n() > 0 ? hostMatmulTflops : null,
                share,
                peakTflops,
                mfu,
                mbu.n() > 0 ? peakTbps : null,
                mbu));
    }

    /** The dense datasheet peak in the run's precision; none for fp32 and fp16, which the table does not give. */
    private Double peakTflops(Peaks.DevicePeaks peaks) {
        Peaks.Precision p = switch (precision) {
            case "bf16" -> Peaks.Precision.BF16;
            case "fp8" -> Peaks.Precision.FP8;
            case "int8" -> Peaks.Precision.INT8;
            default -> null;
        };
        return p == null ? null : peaks.dense(p).map(Peaks.Flops::teraFlops).orElse(null);
    }

    private static List<Double> perAccelerator(List<Double> values, Double perUnit, int devices) {
        if (perUnit == null) {
            return List.of();
        }
        return values.stream().map(v -> v * perUnit / devices).toList();
    }

    static void insert(Connection c, UUID runId, String metric, Row r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_run_hardware_use (run_id, metric, key_id, device_id, basis, matmul_tflops, share_n,
                    share_sum, share_sumsq, peak_tflops, mfu_n, mfu_sum, mfu_sumsq, peak_tbps, mbu_n, mbu_sum, mbu_sumsq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (run_id, metric) DO NOTHING""")) {
            ps.setObject(1, runId);
            ps.setString(2, metric);
            ps.setString(3, r.keyId());
            ps.setString(4, r.deviceId());
            ps.setString(5, r.basis());
            setDouble(ps, 6, r.matmulTflops());
            setSums(ps, 7, r.share());
            setDouble(ps, 10, r.peakTflops());
            setSums(ps, 11, r.mfu());
            setDouble(ps, 14, r.peakTbps());
            setSums(ps, 15, r.mbu());
            ps.executeUpdate();
        }
    }

    private static void setSums(PreparedStatement ps, int at, Sums s) throws SQLException {
        ps.setInt(at, s.n());
        ps.setDouble(at + 1, s.sum());
        ps.setDouble(at + 2, s.sumsq());
    }

    private static void setDouble(PreparedStatement ps, int at, Double v) throws SQLException {
        if (v == null) {
            ps.setNull(at, Types.DOUBLE);
        } else {
            ps.setDouble(at, v);
        }
    }
}
