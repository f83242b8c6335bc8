package dev.podium.ingest.projection;

import dev.podium.events.model.SeriesKind;
import dev.podium.events.run.MetricSampled;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Energy per unit of work, so that pages never read power samples: {@code proj_run_power} (a run's average system
 * power, recomputed from its stored POWER samples when a batch brings some) and {@code proj_energy_cell} (per key,
 * metric and device, the sums of {@link EnergyCell}, recomputed from its runs with power for every cell of a run the
 * batch touched or sampled, and every cell results left). Both are functions of the read models they are computed from,
 * so applying an event twice, or replaying the store, gives the same rows.
 */
@ApplicationScoped
public class EnergyProjection implements Projection {

    /** The tables, derived from proj_run_series, proj_result and proj_run. */
    static final List<String> TABLES = List.of("proj_energy_cell", "proj_run_power");

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        if (event.envelope().payload() instanceof MetricSampled m && m.series() == SeriesKind.POWER) {
            touched.sampled(m.runId());
        }
    }

    /** Once the batch's series and results are written: the power of the runs it sampled, then the cells. */
    void recompute(Connection c, Touched touched) throws SQLException {
        Set<UUID> sampled = touched.sampledRuns();
        if (!sampled.isEmpty()) {
            refreshPower(c, sampled.toArray(new UUID[0]));
        }
        Set<UUID> runs = new LinkedHashSet<>(touched.runs());
        runs.addAll(sampled);
        Set<Touched.KeyMetricDevice> cells = new LinkedHashSet<>(touched.devices());
        if (!runs.isEmpty()) {
            cells.addAll(cells(c, RUN_CELLS, c.createArrayOf("uuid", runs.toArray())));
        }
        cells.forEach(cell -> touched.pageKey(cell.keyId()));
        recomputeCells(c, cells);
    }

    /** Every run's power and every cell, from the read models (after a rebuild's replay). */
    void recomputeAll(Connection c) throws SQLException {
        refreshPower(c, null);
        List<Touched.KeyMetricDevice> all = new ArrayList<>(cells(c, ALL_CELLS, null));
        for (int i = 0; i < all.size(); i += 1000) {
            recomputeCells(c, new LinkedHashSet<>(all.subList(i, Math.min(all.size(), i + 1000))));
        }
    }

    /**
     * The runs' rows of {@code proj_run_power} (all runs with {@code runIds} null), from their POWER samples: numeric
     * averages, so the figure does not depend on the order samples are read in.
     */
    private static void refreshPower(Connection c, UUID[] runIds) throws SQLException {
        String only = runIds == null ? "" : "s.run_id = ANY(?::uuid[]) AND";
        try (PreparedStatement delete = c.prepareStatement(
                        runIds == null
                                ? "DELETE FROM proj_run_power"
                                : "DELETE FROM proj_run_power WHERE run_id = ANY(?::uuid[])");
                PreparedStatement insert = c.prepareStatement("""
                        INSERT INTO proj_run_power (run_id, system_watts, samples)
                        SELECT d.run_id, sum(d.watts)::float8, sum(d.samples)::int
                        FROM (SELECT s.run_id, avg((e.sample->>'value')::numeric) AS watts, count(*) AS samples
                              FROM proj_run_series s
                              CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(s.samples) = 'array'
                                                                           THEN s.samples ELSE '[]'::jsonb END) AS e(sample)
                              WHERE %s s.series = 'POWER' AND jsonb_typeof(e.sample->'value') = 'number'
                                AND (e.sample->>'value')::numeric >= 0
                              GROUP BY s.run_id, CASE WHEN jsonb_typeof(e.sample->'device') = 'number'
                                                      THEN (e.sample->>'device')::numeric ELSE -1 END) AS d
                        GROUP BY d.run_id""".formatted(only))) {
            if (runIds != null) {
                delete.setArray(1, c.createArrayOf("uuid", runIds));
                insert.setArray(1, c.createArrayOf("uuid", runIds));
            }
            delete.executeUpdate();
            insert.executeUpdate();
        }
    }

    /** The cells of the given runs' results, where the run has power. */
    private static final String RUN_CELLS = """
            SELECT DISTINCT m.key_id, m.metric, m.device_id FROM proj_result m JOIN proj_run_power p ON p.run_id = m.run_id
            WHERE m.run_id = ANY(?) AND m.key_id IS NOT NULL AND m.device_id IS NOT NULL""";

    private static final String ALL_CELLS = """
            SELECT DISTINCT m.key_id, m.metric, m.device_id FROM proj_run_power p JOIN proj_result m ON m.run_id = p.run_id
            WHERE m.key_id IS NOT NULL AND m.device_id IS NOT NULL ORDER BY 1, 2, 3""";

    private static List<Touched.KeyMetricDevice> cells(Connection c, String sql, Array runs) throws SQLException {
        List<Touched.KeyMetricDevice> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            if (runs != null) {
                ps.setArray(1, runs);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Touched.KeyMetricDevice(
                            rs.getString("key_id"), rs.getString("metric"), rs.getString("device_id")));
                }
            }
        }
        return out;
    }

    /**
     * Replaces the cells' rows by their sums over their runs with power: one read of the runs (through {@code LATERAL
     * ... OFFSET 0}, one lookup of the results index per cell), one DELETE and one INSERT. A plain insert: if another
     * batch writes the same cell at the same time, one of the two fails and is read again.
     */
    private static void recomputeCells(Connection c, Set<Touched.KeyMetricDevice> cells) throws SQLException {
        if (cells.isEmpty()) {
            return;
        }
        Map<Touched.KeyMetricDevice, EnergyCell> sums = new LinkedHashMap<>();
        cells.forEach(cell -> sums.put(cell, EnergyCell.empty(cell)));
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT t.key_id, t.metric, t.device_id, e.system_watts, e.mean, e.scope, e.device_count, e.valid
                FROM unnest(?::text[], ?::text[], ?::text[]) AS t(key_id, metric, device_id)
                CROSS JOIN LATERAL (
                    SELECT p.system_watts, m.mean, m.scope, r.device_count, coalesce(r.valid, false) AS valid
                    FROM proj_result m
                    JOIN proj_run r ON r.run_id = m.run_id
                    JOIN proj_run_power p ON p.run_id = m.run_id
                    WHERE m.key_id = t.key_id AND m.metric = t.metric AND m.device_id = t.device_id
                      AND r.status = 'completed' AND NOT r.retracted
                    OFFSET 0) AS e""")) {
            bindCells(c, ps, cells);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    var cell = new Touched.KeyMetricDevice(
                            rs.getString("key_id"), rs.getString("metric"), rs.getString("device_id"));
                    sums.put(cell, sums.get(cell).plus(run(rs)));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                DELETE FROM proj_energy_cell x USING unnest(?::text[], ?::text[], ?::text[]) AS t(key_id, metric, device_id)
                WHERE x.key_id = t.key_id AND x.metric = t.metric AND x.device_id = t.device_id""")) {
            bindCells(c, ps, cells);
            ps.executeUpdate();
        }
        List<EnergyCell> rows = sums.values().stream().filter(s -> !s.isEmpty()).toList();
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_energy_cell (key_id, metric, device_id, runs, joules_sum, watts_sum, failing_runs,
                                              failing_joules_sum, failing_watts_sum)
                SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::numeric[], ?::numeric[], ?::int[],
                                     ?::numeric[], ?::numeric[])""")) {
            bindCells(c, ps, rows.stream().map(EnergyCell::cell).toList());
            ps.setArray(
                    4,
                    c.createArrayOf("int4", rows.stream().map(EnergyCell::runs).toArray()));
            ps.setArray(5, numeric(c, rows.stream().map(EnergyCell::joulesSum).toList()));
            ps.setArray(6, numeric(c, rows.stream().map(EnergyCell::wattsSum).toList()));
            ps.setArray(
                    7,
                    c.createArrayOf(
                            "int4", rows.stream().map(EnergyCell::failingRuns).toArray()));
            ps.setArray(
                    8,
                    numeric(c, rows.stream().map(EnergyCell::failingJoulesSum).toList()));
            ps.setArray(
                    9, numeric(c, rows.stream().map(EnergyCell::failingWattsSum).toList()));
            ps.executeUpdate();
        }
    }

    private static EnergyCell.Run run(ResultSet rs) throws SQLException {
        double mean = rs.getDouble("mean");
        Double m = rs.wasNull() ? null : mean;
        int devices = rs.getInt("device_count");
        Integer d = rs.wasNull() ? null : devices;
        return new EnergyCell.Run(rs.getDouble("system_watts"), m, rs.getString("scope"), d, rs.getBoolean("valid"));
    }

    /** Key, metric and device ids as the first three parameters, for an {@code unnest} of three columns. */
    private static void bindCells(Connection c, PreparedStatement ps, Collection<Touched.KeyMetricDevice> cells)
            throws SQLException {
        ps.setArray(
                1,
                c.createArrayOf(
                        "text",
                        cells.stream().map(Touched.KeyMetricDevice::keyId).toArray()));
        ps.setArray(
                2,
                c.createArrayOf(
                        "text",
                        cells.stream().map(Touched.KeyMetricDevice::metric).toArray()));
        ps.setArray(
                3,
                c.createArrayOf(
                        "text",
                        cells.stream().map(Touched.KeyMetricDevice::deviceId).toArray()));
    }

    /** Exact sums as their plain text, which numeric reads back unchanged. */
    private static Array numeric(Connection c, List<BigDecimal> values) throws SQLException {
        return c.createArrayOf(
                "numeric", values.stream().map(BigDecimal::toPlainString).toArray());
    }
}
