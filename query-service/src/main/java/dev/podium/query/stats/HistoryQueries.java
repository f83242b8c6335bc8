package dev.podium.query.stats;

import dev.podium.query.data.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The SQL of histories and their steps. Points come from proj_result (on its (key_id, metric, device_id) index); the
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

    /** One point of a history: a counted, valid run's mean. */
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
            double[] rawValues) {}

    /** The history of one key, metric and device, oldest first (runs that started together in run id order). */
    public List<HistoryRow> history(String keyId, String metric, String deviceId) {
        List<HistoryRow> rows = jdbc.list(
                "SELECT m.key_id, m.metric, m.device_id, r.benchmark, m.unit, m.direction, m.run_id, "
                        + "r.started_at, m.mean, m.n, r.software->>'framework_version' AS framework_version, m.raw_values FROM proj_result m "
                        + "JOIN proj_run r ON r.run_id = m.run_id WHERE r.status = 'completed' AND r.valid AND NOT r.retracted "
                        + "AND r.started_at IS NOT NULL AND m.mean IS NOT NULL AND m.key_id = ? AND m.metric = ? AND m.device_id = ? "
                        + "ORDER BY r.started_at DESC, m.run_id DESC LIMIT ?",
                HistoryQueries::historyRow,
                keyId,
                metric,
                deviceId,
                MAX_POINTS);
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

    private static final String CHANGE_COLUMNS =
            "SELECT key_id, metric, device_id, run_id, kind, benchmark, unit, level_before, "
                    + "level_after, sigmas, point_index, started_at, version_before, version_after FROM proj_change_point ";
    private static final String NEWEST_FIRST = " ORDER BY started_at DESC, key_id, device_id LIMIT ?";

    /** The steps of one history, oldest first. */
    public List<ChangeRow> changes(String keyId, String metric, String deviceId) {
        return jdbc.list(
                CHANGE_COLUMNS + "WHERE key_id = ? AND metric = ? AND device_id = ? ORDER BY point_index",
                HistoryQueries::changeRow,
                keyId,
                metric,
                deviceId);
    }

    /**
     * The newest steps, of one kind ("regression", "improvement") or any (null), under one benchmark or any (null). One
     * statement per combination, so that each reads its own index in order and stops after {@code limit} rows.
     */
    public List<ChangeRow> newest(String kind, String benchmark, int limit) {
        if (kind == null && benchmark == null) {
            return jdbc.list(CHANGE_COLUMNS + NEWEST_FIRST, HistoryQueries::changeRow, limit);
        }
        if (benchmark == null) {
            return jdbc.list(CHANGE_COLUMNS + "WHERE kind = ?" + NEWEST_FIRST, HistoryQueries::changeRow, kind, limit);
        }
        if (kind == null) {
            return jdbc.list(
                    CHANGE_COLUMNS + "WHERE benchmark = ?" + NEWEST_FIRST, HistoryQueries::changeRow, benchmark, limit);
        }
        return jdbc.list(
                CHANGE_COLUMNS + "WHERE benchmark = ? AND kind = ?" + NEWEST_FIRST,
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
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getObject(7, UUID.class),
                Jdbc.instant(rs, "started_at"),
                rs.getDouble(9),
                Jdbc.integer(rs, "n"),
                rs.getString(11),
                doubles(rs.getArray(12)));
    }

    /** A float8[] column without its nulls. */
    private static double[] doubles(Array array) throws SQLException {
        if (array == null) {
            return new double[0];
        }
        return Arrays.stream((Object[]) array.getArray())
                .filter(Objects::nonNull)
                .mapToDouble(v -> ((Number) v).doubleValue())
                .toArray();
    }
}
