package dev.podium.query.stats;

import dev.podium.query.data.Catalog;
import dev.podium.query.data.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The SQL of histories and their steps. Points come from proj_cell_run (an index-only range of its primary key); the
 * steps and the totals come from the rows ingest derives after each batch (proj_change_point,
 * proj_history, history_state), each on an index: no page runs step detection or scans every history.
 */
@ApplicationScoped
public class HistoryQueries {

    /** The most recent points of a history that a page shows, as many as ingest's step detection reads. */
    public static final int MAX_POINTS = 5000;

    private final Jdbc jdbc;

    public HistoryQueries(DataSource dataSource) {
        this.jdbc = new Jdbc(dataSource);
    }

    /**
     * One point of a history: a counted, valid run's mean, and the logarithms a ratio interval of its version needs (as
     * proj_cell_run keeps them): the count, sum and sum of squares of its usable per-repetition values' logs, and the log
     * of its run mean (null when that mean is not positive and finite).
     */
    public record HistoryRow(
            String keyId,
            String metric,
            String deviceId,
            String benchmark,
            String unit,
            String direction,
            UUID runId,
            Instant startedAt,
            double mean,
            Integer n,
            String frameworkVersion,
            int valuesN,
            BigDecimal valuesLogSum,
            BigDecimal valuesLogSumSquares,
            BigDecimal meanLog) {}

    /**
     * The history of one key, metric and device, oldest first (runs that started together in run id order): the points
     * ingest's step detection reads, from one range of proj_cell_run's primary key, whose index carries every column.
     */
    public List<HistoryRow> history(String keyId, String metric, String deviceId) {
        List<HistoryRow> rows = jdbc.list("""
                SELECT key_id, metric, device_id, benchmark, unit, direction, run_id, started_at, mean, n,
                       framework_version, values_n, values_log_sum, values_log_sum_squares, mean_log
                FROM proj_cell_run
                WHERE key_id = ? AND metric = ? AND device_id = ? AND valid AND started_at IS NOT NULL
                  AND mean IS NOT NULL
                ORDER BY started_at DESC, run_id DESC LIMIT ?""", HistoryQueries::historyRow, keyId, metric, deviceId, MAX_POINTS);
        List<HistoryRow> out = new ArrayList<>(rows);
        Collections.reverse(out);
        return out;
    }

    /** A stored step (proj_change_point). */
    public record ChangeRow(
            String keyId,
            String metric,
            String deviceId,
            UUID runId,
            String kind,
            String benchmark,
            String unit,
            double before,
            double after,
            double sigmas,
            int index,
            Instant at,
            String versionBefore,
            String versionAfter) {}

    /** A step's size in σ comes from its history's σ now (proj_history.sigma), which moves with every point. */
    private static final String CHANGE_COLUMNS =
            "SELECT p.key_id, p.metric, p.device_id, p.run_id, p.kind, p.benchmark, p.unit, p.level_before, "
                    + "p.level_after, abs(p.level_after - p.level_before) / nullif(h.sigma, 0) AS sigmas, "
                    + "p.point_index, p.started_at, p.version_before, p.version_after "
                    + "FROM proj_change_point p JOIN proj_history h USING (key_id, metric, device_id) ";

    /** Steps of histories whose benchmark, key and device no admin hid; each list's conditions follow. */
    private static final String SHOWN = "WHERE " + Catalog.shownBenchmark("p.benchmark") + " AND "
            + Catalog.shownKey("p.key_id") + " AND " + Catalog.shownDevice("p.device_id");

    private static final String NEWEST_FIRST = " ORDER BY p.started_at DESC, p.key_id, p.device_id LIMIT ?";

    /** The steps of one history, oldest first. */
    public List<ChangeRow> changes(String keyId, String metric, String deviceId) {
        return jdbc.list(
                CHANGE_COLUMNS + "WHERE p.key_id = ? AND p.metric = ? AND p.device_id = ? ORDER BY p.point_index",
                HistoryQueries::changeRow,
                keyId,
                metric,
                deviceId);
    }

    /**
     * The newest steps, of one kind ("regression", "improvement") or any (null), under one benchmark or any (null), but
     * those of hidden benchmarks, keys and devices. One statement per combination, so that each reads its own index in
     * order and stops after {@code limit} rows.
     */
    public List<ChangeRow> newest(String kind, String benchmark, int limit) {
        if (kind == null && benchmark == null) {
            return jdbc.list(CHANGE_COLUMNS + SHOWN + NEWEST_FIRST, HistoryQueries::changeRow, limit);
        }
        if (benchmark == null) {
            return jdbc.list(
                    CHANGE_COLUMNS + SHOWN + " AND p.kind = ?" + NEWEST_FIRST, HistoryQueries::changeRow, kind, limit);
        }
        if (kind == null) {
            return jdbc.list(
                    CHANGE_COLUMNS + SHOWN + " AND p.benchmark = ?" + NEWEST_FIRST,
                    HistoryQueries::changeRow,
                    benchmark,
                    limit);
        }
        return jdbc.list(
                CHANGE_COLUMNS + SHOWN + " AND p.benchmark = ? AND p.kind = ?" + NEWEST_FIRST,
                HistoryQueries::changeRow,
                benchmark,
                kind,
                limit);
    }

    /** How far ingest's step detection has got: the method, how many histories and points it searched. */
    public record State(String method, int histories, long points) {

        static final State NONE = new State("", 0, 0);
    }

    public State state() {
        return jdbc.one(
                        "SELECT method, histories, points FROM history_state WHERE id = 1",
                        rs -> new State(rs.getString(1), rs.getInt(2), rs.getLong(3)))
                .orElse(State.NONE);
    }

    private static ChangeRow changeRow(ResultSet rs) throws SQLException {
        return new ChangeRow(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getObject(4, UUID.class),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                rs.getDouble(8),
                rs.getDouble(9),
                rs.getDouble(10),
                rs.getInt(11),
                Jdbc.instant(rs, "started_at"),
                rs.getString(13),
                rs.getString(14));
    }

    private static HistoryRow historyRow(ResultSet rs) throws SQLException {
        return new HistoryRow(
                rs.getString("key_id"),
                rs.getString("metric"),
                rs.getString("device_id"),
                rs.getString("benchmark"),
                rs.getString("unit"),
                rs.getString("direction"),
                rs.getObject("run_id", UUID.class),
                Jdbc.instant(rs, "started_at"),
                rs.getDouble("mean"),
                Jdbc.integer(rs, "n"),
                rs.getString("framework_version"),
                rs.getInt("values_n"),
                rs.getBigDecimal("values_log_sum"),
                rs.getBigDecimal("values_log_sum_squares"),
                rs.getBigDecimal("mean_log"));
    }
}
