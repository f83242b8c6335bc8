package dev.podium.query.data;

import dev.podium.events.model.Direction;
import dev.podium.events.model.RunMeans;
import dev.podium.query.stats.LogSample;
import dev.podium.query.stats.Samples;
import jakarta.enterprise.context.ApplicationScoped;
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

    /** The scope of a device's results under a key and how many of its completed runs failed a validity check. */
    public record CellFacts(String keyId, String deviceId, String scope, int failingRuns) {}

    public List<CellFacts> facts(List<String> keyIds, String metric) {
        return jdbc.list(
                "SELECT key_id, device_id, scope, failing_runs FROM proj_comparison_cell WHERE key_id = ANY(?) AND metric = ?",
                rs -> new CellFacts(
                        rs.getString("key_id"),
                        rs.getString("device_id"),
                        rs.getString("scope"),
                        rs.getInt("failing_runs")),
                keyIds.toArray(String[]::new),
                metric);
    }

    /** The energy of every device under {@code keyIds} that recorded power. */
    public List<EnergyRow> energy(List<String> keyIds, String metric) {
        return jdbc.list(
                """
                SELECT key_id, device_id, runs, joules_sum, watts_sum, failing_runs, failing_joules_sum, failing_watts_sum
                FROM proj_energy_cell WHERE key_id = ANY(?) AND metric = ?""",
                rs -> new EnergyRow(
                        rs.getString("key_id"),
                        rs.getString("device_id"),
                        rs.getInt("runs"),
                        rs.getBigDecimal("joules_sum"),
                        rs.getBigDecimal("watts_sum"),
                        rs.getInt("failing_runs"),
                        rs.getBigDecimal("failing_joules_sum"),
                        rs.getBigDecimal("failing_watts_sum")),
                keyIds.toArray(String[]::new),
                metric);
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
