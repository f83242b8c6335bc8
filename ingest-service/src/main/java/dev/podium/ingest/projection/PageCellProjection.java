package dev.podium.ingest.projection;

import dev.podium.ingest.store.Columns;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The read models shaped like the comparison and the leaderboard's software filter, per (key, metric, device) cell:
 * {@code proj_comparison_cell} (what a ratio interval needs of one side, and the runs that failed a check) and
 * {@code proj_leaderboard_version_row} (the leaderboard's sums per framework version) and
 * {@code proj_leaderboard_all_runs_row} (the measured rows with runs that failed a check counted). A batch first
 * rewrites what each run it touched adds to its cells ({@code proj_cell_run}, one row per cell and run); then it
 * extends the cells that only gained runs by what those runs add (the common case: its cost does not grow with the
 * cell's runs), and recomputes from their {@code proj_cell_run} rows alone the cells that lost rows, the cells it names
 * and those it could not extend: the SQL functions of migrations V85 and V90. Published figures are in none of them.
 */
@ApplicationScoped
public class PageCellProjection {

    /** The tables, derived from proj_result and proj_run. */
    static final List<String> TABLES = List.of(
            "proj_cell_run", "proj_comparison_cell", "proj_leaderboard_version_row", "proj_leaderboard_all_runs_row");

    /** The cells to refresh, as the function's three arrays: key ids, metrics, device ids. */
    private static final Columns<Touched.KeyMetricDevice> CELLS = Columns.of(Touched.KeyMetricDevice.class);

    void recompute(Connection c, Touched touched) throws SQLException {
        Set<Touched.KeyMetricDevice> full = new LinkedHashSet<>(touched.devices());
        Set<Touched.KeyMetricDevice> gained = new LinkedHashSet<>();
        if (!touched.runs().isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT key_id, metric, device_id, removed FROM podium_refresh_cell_runs(?::uuid[])""")) {
                ps.setArray(1, runs(c, touched));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        (rs.getBoolean("removed") ? full : gained).add(cell(rs));
                    }
                }
            }
        }
        gained.removeAll(full);
        if (!gained.isEmpty()) {
            full.addAll(extend(c, gained, touched));
        }
        if (!full.isEmpty()) {
            CELLS.call(c, "podium_refresh_page_cells", List.copyOf(full));
        }
    }

    /** Extends the cells that only gained rows of the touched runs; the cells that could not be, to recompute. */
    private static List<Touched.KeyMetricDevice> extend(
            Connection c, Set<Touched.KeyMetricDevice> gained, Touched touched) throws SQLException {
        List<Touched.KeyMetricDevice> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT key_id, metric, device_id FROM podium_extend_page_cells("
                + CELLS.parameters() + ", ?::uuid[])")) {
            int next = CELLS.bind(ps, 1, List.copyOf(gained));
            ps.setArray(next, runs(c, touched));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(cell(rs));
                }
            }
        }
        return out;
    }

    private static Array runs(Connection c, Touched touched) throws SQLException {
        return c.createArrayOf("uuid", touched.runs().toArray(new UUID[0]));
    }

    private static Touched.KeyMetricDevice cell(ResultSet rs) throws SQLException {
        return new Touched.KeyMetricDevice(rs.getString("key_id"), rs.getString("metric"), rs.getString("device_id"));
    }

    void recomputeAll(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT podium_refresh_all_page_cells()");
        }
    }
}
