package dev.podium.query.serving;

import dev.podium.query.data.Catalog;
import dev.podium.query.data.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import javax.sql.DataSource;

/** The serving view's reads: the measured rows of its two metrics and of its target's metric, by index. */
@ApplicationScoped
public class ServingQueries {

    /** A benchmark with more rows than this (a thousand points of three metrics) is shown in part, and says so. */
    static final int MAX_ROWS = 3000;

    private final Jdbc jdbc;

    public ServingQueries(DataSource dataSource) {
        this.jdbc = new Jdbc(dataSource);
    }

    List<ServingRow> rows(String benchmark, String x, String y, String target) {
        return jdbc.list(
                """
                SELECT r.key_id, r.metric, r.device_id, coalesce(d.label, r.device_id) AS device_label, r.direction, r.unit,
                       r.runs, r.n, r.mean, r.ci95_low, r.ci95_high
                FROM proj_leaderboard_row r LEFT JOIN proj_device d ON d.device_id = r.device_id
                WHERE r.benchmark = ? AND r.metric IN (?, ?, ?) AND r.source = 'measured' AND %s
                ORDER BY r.key_id, r.device_id, r.metric LIMIT ?""".formatted(Catalog.shownDevice("r.device_id")),
                rs -> new ServingRow(
                        rs.getString("key_id"),
                        rs.getString("metric"),
                        rs.getString("device_id"),
                        rs.getString("device_label"),
                        rs.getString("direction"),
                        rs.getString("unit"),
                        rs.getInt("runs"),
                        rs.getInt("n"),
                        Jdbc.dbl(rs, "mean"),
                        Jdbc.dbl(rs, "ci95_low"),
                        Jdbc.dbl(rs, "ci95_high")),
                benchmark,
                x,
                y,
                target,
                MAX_ROWS + 1);
    }
}
