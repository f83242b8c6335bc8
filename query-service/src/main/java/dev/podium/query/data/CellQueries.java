package dev.podium.query.data;

import dev.podium.events.model.Direction;
import dev.podium.events.model.RunMeans;
import dev.podium.query.stats.LogSample;
import dev.podium.query.stats.Samples;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * Reads of the page-shaped cells ingest keeps per (key, metric, device): {@code proj_comparison_cell},
 * {@code proj_leaderboard_version_row} and {@code proj_energy_cell}. Each is one read of the primary key's leading columns,
 * of rows whose figures follow from stored sums.
 */
@ApplicationScoped
public class CellQueries {

    private final Jdbc jdbc;

    public CellQueries(DataSource dataSource) {
        this.jdbc = new Jdbc(dataSource);
    }

    /** One device's side of a ratio interval under one key: its {@link Samples} as a {@link LogSample}. */
    public record IntervalCell(String keyId, String deviceId, LogSample sample) {}

    /** The interval side of every device under {@code keyIds}: run means from {@link Samples#RUN_MEANS_FROM} runs, else values. */
    public List<IntervalCell> intervals(List<String> keyIds, String metric) {
        return jdbc.list(
                """
                SELECT key_id, device_id, runs, values_n, values_log_sum, values_log_sum_squares, means_n, means_log_sum,
                       means_log_sum_squares
                FROM proj_comparison_cell WHERE key_id = ANY(?) AND metric = ? AND runs > 0""",
                rs -> {
                    boolean means = rs.getInt("runs") >= Samples.RUN_MEANS_FROM;
                    String prefix = means ? "means_" : "values_";
                    return new IntervalCell(
                            rs.getString("key_id"),
                            rs.getString("device_id"),
                            LogSample.ofSums(
                                    rs.getInt(prefix + "n"),
                                    rs.getBigDecimal(prefix + "log_sum"),
                                    rs.getBigDecimal(prefix + "log_sum_squares")));
                },
                keyIds.toArray(String[]::new),
                metric);
    }

    /**
     * The scope of a device's results under a key, how many of its completed runs failed a validity check, and how its
     * runs whose enforced power limit was below the default ran (null when none did).
     */
    public record CellFacts(String keyId, String deviceId, String scope, int failingRuns, PowerCap powerCap) {}

    /** How many runs of a cell ran with a lowered power limit, and the lowest such limit beside that device's default. */
    public record PowerCap(int runs, double limitWatts, double defaultWatts) {}

    public List<CellFacts> facts(List<String> keyIds, String metric) {
        return jdbc.list(
                """
                SELECT key_id, device_id, scope, failing_runs, capped_runs, capped_limit_w, capped_default_w
                FROM proj_comparison_cell WHERE key_id = ANY(?) AND metric = ?""",
                rs -> new CellFacts(
                        rs.getString("key_id"),
                        rs.getString("device_id"),
                        rs.getString("scope"),
                        rs.getInt("failing_runs"),
                        rs.getInt("capped_runs") == 0
                                ? null
                                : new PowerCap(
                                        rs.getInt("capped_runs"),
                                        rs.getDouble("capped_limit_w"),
                                        rs.getDouble("capped_default_w"))),
                keyIds.toArray(String[]::new),
                metric);
    }

    /** One configuration setting a device's counted runs under a key recorded, and one of its values. */
    public record ConfigValue(String keyId, String deviceId, String setting, String value) {}

    /**
     * The distinct configuration values of the counted (completed, valid, not retracted) runs of {@code deviceIds} under
     * {@code keyIds}: driver, runtime, framework, Python, libraries, container image, host CPU and OS, and the enforced
     * power limit where the run's devices were read, and the workload's parameters. At most {@code limit} values.
     */
    public List<ConfigValue> configurations(List<String> keyIds, List<String> deviceIds, int limit) {
        return jdbc.list(
                """
                SELECT r.key_id, r.device_id, f.setting, f.value
                FROM proj_run r
                LEFT JOIN proj_run_throttle_head t ON t.run_id = r.run_id
                CROSS JOIN LATERAL (
                    SELECT * FROM (VALUES
                        ('driver', r.accelerators->0->>'driver'),
                        ('runtime', r.accelerators->0->>'runtime'),
                        ('framework', concat_ws(' ', r.software->>'framework', r.software->>'framework_version')),
                        ('python', r.software->>'python_version'),
                        ('container image', r.software->>'container_image_digest'),
                        ('host CPU', r.host->>'cpu_model'),
                        ('host OS', concat_ws(' ', r.host->>'os', r.host->>'kernel')),
                        ('power limit (W)', t.devices->0->>'power_limit_watts')) v(setting, value)
                    UNION ALL
                    SELECT 'library ' || l.key, l.value
                    FROM jsonb_each_text(CASE WHEN jsonb_typeof(r.software->'libraries') = 'object'
                                              THEN r.software->'libraries' ELSE '{}'::jsonb END) l
                    UNION ALL
                    SELECT 'parameter ' || p.key, p.value
                    FROM jsonb_each_text(CASE WHEN jsonb_typeof(r.workload->'parameters') = 'object'
                                              THEN r.workload->'parameters' ELSE '{}'::jsonb END) p
                ) f(setting, value)
                WHERE r.key_id = ANY(?) AND r.device_id = ANY(?) AND r.status = 'completed' AND r.valid IS TRUE
                  AND NOT r.retracted AND f.value IS NOT NULL AND f.value <> ''
                GROUP BY 1, 2, 3, 4
                ORDER BY 1, 2, 3, 4
                LIMIT ?""",
                rs -> new ConfigValue(
                        rs.getString("key_id"),
                        rs.getString("device_id"),
                        rs.getString("setting"),
                        rs.getString("value")),
                keyIds.toArray(String[]::new),
                deviceIds.toArray(String[]::new),
                limit);
    }

    /** How many of a device's runs under a key ended one way: "counted", or the reason they were left out. */
    public record RunOutcome(String keyId, String deviceId, String outcome, int runs) {}

    public static final String COUNTED = "counted";

    /** Every run of {@code deviceIds} under {@code keyIds}, counted or left out, by why. */
    public List<RunOutcome> outcomes(List<String> keyIds, List<String> deviceIds) {
        return jdbc.list(
                """
                SELECT key_id, device_id,
                       CASE WHEN retracted THEN 'retracted'
                            WHEN status = 'superseded' THEN 'superseded'
                            WHEN status = 'failed' THEN 'failed'
                            WHEN status = 'cancelled' THEN 'cancelled'
                            WHEN status = 'completed' AND valid IS TRUE THEN 'counted'
                            WHEN status = 'completed' THEN 'failed a check'
                            ELSE 'unfinished' END AS outcome,
                       count(*) AS runs
                FROM proj_run WHERE key_id = ANY(?) AND device_id = ANY(?)
                GROUP BY 1, 2, 3 ORDER BY 1, 2, 3""",
                rs -> new RunOutcome(
                        rs.getString("key_id"), rs.getString("device_id"), rs.getString("outcome"), rs.getInt("runs")),
                keyIds.toArray(String[]::new),
                deviceIds.toArray(String[]::new));
    }

    /** The hardware use of every device under {@code keyIds} whose runs stated their work, counted and failing apart. */
    public List<HardwareUseRow> hardwareUse(List<String> keyIds, String metric) {
        return jdbc.list(
                """
                SELECT key_id, device_id, valid, runs, basis, matmul_runs, matmul_sum, share_n, share_sum, share_sumsq,
                       peak_tflops, mfu_n, mfu_sum, mfu_sumsq, peak_tbps, mbu_n, mbu_sum, mbu_sumsq
                FROM proj_hardware_use_cell WHERE key_id = ANY(?) AND metric = ?""",
                rs -> new HardwareUseRow(
                        rs.getString("key_id"),
                        rs.getString("device_id"),
                        rs.getBoolean("valid"),
                        rs.getInt("runs"),
                        rs.getString("basis"),
                        rs.getInt("matmul_runs"),
                        rs.getDouble("matmul_sum"),
                        useSums(rs, "share"),
                        Jdbc.dbl(rs, "peak_tflops"),
                        useSums(rs, "mfu"),
                        Jdbc.dbl(rs, "peak_tbps"),
                        useSums(rs, "mbu")),
                keyIds.toArray(String[]::new),
                metric);
    }

    private static HardwareUseRow.Sums useSums(java.sql.ResultSet rs, String prefix) throws java.sql.SQLException {
        return new HardwareUseRow.Sums(
                rs.getInt(prefix + "_n"), rs.getDouble(prefix + "_sum"), rs.getDouble(prefix + "_sumsq"));
    }

    /** The energy of every device under {@code keyIds} that recorded power in its runs' measured windows. */
    public List<EnergyRow> energy(List<String> keyIds, String metric) {
        return jdbc.list(
                """
                SELECT key_id, device_id, runs, joules_sum, joules_sq, watts_sum, device_seconds_sum, device_seconds_sq,
                       joules_device_seconds, failing_runs, failing_joules_sum, failing_joules_sq, failing_watts_sum,
                       failing_device_seconds_sum, failing_device_seconds_sq, failing_joules_device_seconds
                FROM proj_energy_cell WHERE key_id = ANY(?) AND metric = ?""",
                rs -> new EnergyRow(
                        rs.getString("key_id"), rs.getString("device_id"), sums(rs, ""), sums(rs, "failing_")),
                keyIds.toArray(String[]::new),
                metric);
    }

    private static EnergyRow.Sums sums(ResultSet rs, String prefix) throws SQLException {
        return new EnergyRow.Sums(
                rs.getInt(prefix + "runs"),
                rs.getBigDecimal(prefix + "joules_sum"),
                rs.getBigDecimal(prefix + "joules_sq"),
                rs.getBigDecimal(prefix + "watts_sum"),
                rs.getBigDecimal(prefix + "device_seconds_sum"),
                rs.getBigDecimal(prefix + "device_seconds_sq"),
                rs.getBigDecimal(prefix + "joules_device_seconds"));
    }

    /** The framework versions with counted runs under a key, in order. */
    public List<String> frameworkVersions(String keyId) {
        return jdbc.list(
                "SELECT DISTINCT framework_version FROM proj_leaderboard_version_row WHERE key_id = ? "
                        + "ORDER BY framework_version",
                rs -> rs.getString(1),
                keyId);
    }

    /** The measured leaderboard rows of a key and metric over the counted runs of one framework version. */
    public List<LeaderboardRow> versionRows(String benchmark, String keyId, String metric, String frameworkVersion) {
        return jdbc.list(
                """
                SELECT device_id, unit, direction, runs, n, mean_sum, mean_sum_squares, mean_min, mean_max
                FROM proj_leaderboard_version_row v WHERE key_id = ? AND metric = ? AND framework_version = ? AND %s""".formatted(Catalog.shownDevice("v.device_id")),
                rs -> {
                    RunMeans means = new RunMeans(
                            rs.getInt("runs"),
                            rs.getBigDecimal("mean_sum"),
                            rs.getBigDecimal("mean_sum_squares"),
                            rs.getDouble("mean_min"),
                            rs.getDouble("mean_max"));
                    RunMeans.Figures f = means.figures();
                    String direction = rs.getString("direction");
                    double best = means.best(
                            Direction.HIGHER_IS_BETTER.name().equals(direction)
                                    ? Direction.HIGHER_IS_BETTER
                                    : Direction.LOWER_IS_BETTER);
                    return new LeaderboardRow(
                            keyId,
                            metric,
                            rs.getString("device_id"),
                            "measured",
                            benchmark,
                            rs.getString("unit"),
                            direction,
                            means.runs(),
                            rs.getInt("n"),
                            f.mean(),
                            f.ci95Low(),
                            f.ci95High(),
                            best,
                            f.cv(),
                            null);
                },
                keyId,
                metric,
                frameworkVersion);
    }
}
