package dev.podium.ingest.projection;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a batch's runs change in {@code proj_fleet_unit} and {@code proj_fleet_cell}: a run's old contribution taken
 * away and its new one added, written in key order (so two batches lock rows in the same order), and the groups of
 * cells whose scores must be computed again.
 */
final class FleetDeltas {

    /** A pool's units measured under one comparison key and metric: the distribution a unit is scored against. */
    record Group(String pool, String keyId, String metric) {}

    record Cell(Group group, FleetRun.Unit unit) {}

    /** What a batch adds to a cell: runs, and their means as exact decimals (a double's shortest text). */
    private static final class Sum {
        long runs;
        BigDecimal means = BigDecimal.ZERO;
    }

    private static final Comparator<Group> GROUP_ORDER =
            Comparator.comparing(Group::pool).thenComparing(Group::keyId).thenComparing(Group::metric);
    private static final Comparator<Cell> CELL_ORDER =
            Comparator.comparing(Cell::group, GROUP_ORDER).thenComparing(Cell::unit);

    private final Map<FleetRun.Unit, long[]> units = new TreeMap<>();
    private final Map<Cell, Sum> cells = new TreeMap<>(CELL_ORDER);
    private final Map<FleetRun.Unit, FleetRun.About> latest = new TreeMap<>();
    private final Map<Cell, String> metricUnits = new TreeMap<>(CELL_ORDER);
    private final Set<Group> groups = new TreeSet<>(GROUP_ORDER);

    /** Adds ({@code sign} 1) or takes back ({@code sign} -1) what the run contributes. */
    void add(FleetRun run, int sign) {
        long[] counts = units.computeIfAbsent(run.unit(), u -> new long[5]);
        switch (run.outcome()) {
            case SET_ASIDE -> {
                return;
            }
            case SUCCEEDED -> counts[1] += sign;
            case INVALID -> counts[2] += sign;
            case FAILED -> counts[3] += sign;
            case CANCELLED -> counts[4] += sign;
            case RUNNING -> {}
        }
        counts[0] += sign;
        if (!run.counted()) {
            return;
        }
        run.means().forEach((metric, mean) -> {
            Cell cell = new Cell(new Group(run.unit().pool(), run.keyId(), metric), run.unit());
            Sum d = cells.computeIfAbsent(cell, k -> new Sum());
            d.runs += sign;
            d.means = d.means.add(new BigDecimal(Double.toString(mean)).multiply(BigDecimal.valueOf(sign)));
            groups.add(cell.group());
        });
    }

    /** Names and versions for the run's unit, kept when its run is the latest seen (unit rows keep the latest too). */
    void describe(FleetRun run, FleetRun.About about) {
        units.computeIfAbsent(run.unit(), u -> new long[5]);
        latest.merge(run.unit(), about, (a, b) -> a.startedPosition() >= b.startedPosition() ? a : b);
        if (run.counted()) {
            run.means()
                    .keySet()
                    .forEach(metric -> metricUnits.put(
                            new Cell(new Group(run.unit().pool(), run.keyId(), metric), run.unit()),
                            about.metricUnits().get(metric)));
        }
    }

    Set<Group> groups() {
        return groups;
    }

    /**
     * Units first (a cell takes its unit's names), then cells, then every cell of a unit whose names moved (they follow
     * its latest run, whichever key that run measured, so a rebuild in another order gives the same cells), then the
     * units no run counts in any more.
     */
    void write(Connection c) throws SQLException {
        writeUnits(c);
        writeCells(c);
        followNames(c);
        try (PreparedStatement empty = c.prepareStatement(
                "DELETE FROM proj_fleet_unit WHERE pool = ? AND host_key = ? AND device = ? AND runs <= 0")) {
            for (FleetRun.Unit u : units.keySet()) {
                unit(empty, 1, u);
                empty.addBatch();
            }
            empty.executeBatch();
        }
    }

    private void writeUnits(Connection c) throws SQLException {
        try (PreparedStatement counts = c.prepareStatement("""
                        INSERT INTO proj_fleet_unit (pool, host_key, device, runs, succeeded, invalid, failed, cancelled)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (pool, host_key, device) DO UPDATE SET runs = proj_fleet_unit.runs + excluded.runs,
                            succeeded = proj_fleet_unit.succeeded + excluded.succeeded,
                            invalid = proj_fleet_unit.invalid + excluded.invalid,
                            failed = proj_fleet_unit.failed + excluded.failed,
                            cancelled = proj_fleet_unit.cancelled + excluded.cancelled""");
                PreparedStatement about = c.prepareStatement("""
                        UPDATE proj_fleet_unit SET hostname = ?, agent_id = ?, device_id = ?, driver = ?, runtime = ?,
                            firmware = ?, versions_position = ?
                        WHERE pool = ? AND host_key = ? AND device = ? AND versions_position <= ?""")) {
            for (Map.Entry<FleetRun.Unit, long[]> e : units.entrySet()) {
                unit(counts, 1, e.getKey());
                for (int i = 0; i < 5; i++) {
                    counts.setLong(4 + i, e.getValue()[i]);
                }
                counts.addBatch();
            }
            for (Map.Entry<FleetRun.Unit, FleetRun.About> e : latest.entrySet()) {
                FleetRun.About a = e.getValue();
                about.setString(1, a.hostname());
                about.setString(2, a.agentId());
                about.setString(3, a.deviceId());
                about.setString(4, a.driver());
                about.setString(5, a.runtime());
                about.setString(6, a.firmware());
                about.setLong(7, a.startedPosition());
                unit(about, 8, e.getKey());
                about.setLong(11, a.startedPosition());
                about.addBatch();
            }
            counts.executeBatch();
            about.executeBatch();
        }
    }

    private void writeCells(Connection c) throws SQLException {
        try (PreparedStatement sums = c.prepareStatement("""
                        INSERT INTO proj_fleet_cell (pool, key_id, metric, host_key, device, hostname, agent_id, unit, runs,
                                                     sum_mean)
                        SELECT ?, ?, ?, ?, ?, u.hostname, u.agent_id, ?, ?, ?
                        FROM proj_fleet_unit u WHERE u.pool = ? AND u.host_key = ? AND u.device = ?
                        ON CONFLICT (pool, key_id, metric, host_key, device) DO UPDATE SET
                            runs = proj_fleet_cell.runs + excluded.runs,
                            sum_mean = proj_fleet_cell.sum_mean + excluded.sum_mean, hostname = excluded.hostname,
                            agent_id = excluded.agent_id, unit = coalesce(excluded.unit, proj_fleet_cell.unit)""");
                PreparedStatement empty = c.prepareStatement("""
                        DELETE FROM proj_fleet_cell
                        WHERE pool = ? AND key_id = ? AND metric = ? AND host_key = ? AND device = ? AND runs <= 0""")) {
            for (Map.Entry<Cell, Sum> e : cells.entrySet()) {
                Cell cell = e.getKey();
                cell(sums, cell);
                sums.setString(6, metricUnits.get(cell));
                sums.setLong(7, e.getValue().runs);
                sums.setBigDecimal(8, e.getValue().means);
                unit(sums, 9, cell.unit());
                sums.addBatch();
                cell(empty, cell);
                empty.addBatch();
            }
            sums.executeBatch();
            empty.executeBatch();
        }
    }

    /** A cell whose agent changed counts as another voice in its group, so its group is scored again. */
    private void followNames(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE proj_fleet_cell f SET hostname = u.hostname, agent_id = u.agent_id
                FROM proj_fleet_unit u
                WHERE u.pool = ? AND u.host_key = ? AND u.device = ?
                  AND f.pool = u.pool AND f.host_key = u.host_key AND f.device = u.device
                  AND (f.hostname, f.agent_id) IS DISTINCT FROM (u.hostname, u.agent_id)
                RETURNING f.pool, f.key_id, f.metric""")) {
            for (FleetRun.Unit u : latest.keySet()) {
                unit(ps, 1, u);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        groups.add(new Group(rs.getString(1), rs.getString(2), rs.getString(3)));
                    }
                }
            }
        }
    }

    private static void cell(PreparedStatement ps, Cell cell) throws SQLException {
        ps.setString(1, cell.group().pool());
        ps.setString(2, cell.group().keyId());
        ps.setString(3, cell.group().metric());
        ps.setString(4, cell.unit().hostKey());
        ps.setString(5, cell.unit().device());
    }

    private static void unit(PreparedStatement ps, int from, FleetRun.Unit unit) throws SQLException {
        ps.setString(from, unit.pool());
        ps.setString(from + 1, unit.hostKey());
        ps.setString(from + 2, unit.device());
    }
}
