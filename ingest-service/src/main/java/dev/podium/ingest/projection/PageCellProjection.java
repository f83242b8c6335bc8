package dev.podium.ingest.projection;

import dev.podium.ingest.store.Columns;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The read models shaped like the comparison and the leaderboard's software filter, per (key, metric, device) cell:
 * {@code proj_comparison_cell} (what a ratio interval needs of one side, and the runs that failed a check) and
 * {@code proj_leaderboard_version_row} (the leaderboard's sums per framework version) and
 * {@code proj_leaderboard_all_runs_row} (the measured rows with runs that failed a check counted). A batch first
 * rewrites what each run it touched adds to its cells ({@code proj_cell_run}, one row per cell and run), then
 * recomputes every cell those rows were in and the cells it names, from their {@code proj_cell_run} rows alone: the SQL
 * functions of migration V85. Published figures are in none of them.
 */
@ApplicationScoped
public class PageCellProjection {

    /** The tables, derived from proj_result and proj_run. */
    static final List<String> TABLES = List.of(
            "proj_cell_run", "proj_comparison_cell", "proj_leaderboard_version_row", "proj_leaderboard_all_runs_row");

    /** The cells to refresh, as the function's three arrays: key ids, metrics, device ids. */
    private static final Columns<Touched.KeyMetricDevice> CELLS = Columns.of(Touched.KeyMetricDevice.class);

    void recompute(Connection c, Touched touched) throws SQLException {
        Set<Touched.KeyMetricDevice> cells = new LinkedHashSet<>(touched.devices());
        if (!touched.runs().isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT key_id, metric, device_id FROM podium_refresh_cell_runs(?::uuid[])""")) {
                ps.setArray(1, c.createArrayOf("uuid", touched.runs().toArray(new UUID[0])));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        cells.add(new Touched.KeyMetricDevice(
                                rs.getString("key_id"), rs.getString("metric"), rs.getString("device_id")));
                    }
                }
            }
        }
        if (cells.isEmpty()) {
            return;
        }
        CELLS.call(c, "podium_refresh_page_cells", List.copyOf(cells));
    }

    void recomputeAll(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SELECT podium_refresh_all_page_cells()");
        }
    }
}
