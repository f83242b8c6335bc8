package dev.podium.ingest.projection;

import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.run.MetricSampled;
import dev.podium.ingest.store.Columns;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Energy per unit of work, so that pages never read power samples: {@code proj_run_power} (a run's average system
 * power: per device index the mean of its POWER samples, summed over devices, over the whole run and over its measured
 * window, the samples of a repetition) kept from running sums per device in
 * {@code proj_run_power_device}, so a batch adds what it brings and never reads the samples a run sent before; and
 * {@code proj_energy_cell} (per key, metric and device, the sums of {@link EnergyCell}, recomputed from its runs with
 * power for every cell of a run the batch touched or sampled, and every cell results left). A run's power row remembers
 * the position of the last event folded in, and a batch whose events are not all past it adds nothing, so applying an
 * event twice changes nothing.
 */
@ApplicationScoped
public class EnergyProjection implements Projection {

    /** The tables; the cells are derived from proj_run_power, proj_result and proj_run. */
    static final List<String> TABLES = List.of("proj_energy_cell", "proj_run_power", "proj_run_power_device");

    /**
     * One run's POWER samples of one device index in a batch (-1: samples without an index), all of them and apart those
     * of the measured window (samples with a repetition, as {@code ThrottleSpan} counts them).
     */
    private record PowerRow(
            UUID runId,
            int device,
            long samples,
            BigDecimal wattsSum,
            long windowSamples,
            BigDecimal windowWattsSum,
            long firstPosition,
            long lastPosition) {

        static PowerRow empty(UUID runId, int device, long firstPosition, long lastPosition) {
            return new PowerRow(runId, device, 0, BigDecimal.ZERO, 0, BigDecimal.ZERO, firstPosition, lastPosition);
        }

        PowerRow plus(Sample s, long position) {
            BigDecimal watts = BigDecimal.valueOf(s.value());
            boolean inWindow = s.repetition() != null;
            return new PowerRow(
                    runId,
                    device,
                    samples + 1,
                    wattsSum.add(watts),
                    windowSamples + (inWindow ? 1 : 0),
                    inWindow ? windowWattsSum.add(watts) : windowWattsSum,
                    firstPosition,
                    Math.max(lastPosition, position));
        }

        PowerRow from(long first) {
            return new PowerRow(runId, device, samples, wattsSum, windowSamples, windowWattsSum, first, lastPosition);
        }
    }

    private static final Columns<PowerRow> POWER = Columns.of(PowerRow.class);

    /**
     * Each device's new mean minus its old one is added to the run's exact watts, for the whole run and for its measured
     * window: summed again from scratch the means would give the same number, since numeric addition is exact and each
     * mean is divided the same way each time. A device with no window sample yet adds nothing to the window's watts.
     */
    private static final String ADD_POWER = """
            WITH b AS (SELECT * FROM %s),
            fresh AS (SELECT b.* FROM b LEFT JOIN proj_run_power p ON p.run_id = b.run_id
                      WHERE b.first_position > coalesce(p.last_position, -1)),
            old AS (SELECT d.run_id, d.device, d.samples, d.watts_sum, d.window_samples, d.window_watts_sum
                    FROM proj_run_power_device d JOIN fresh f ON f.run_id = d.run_id AND f.device = d.device),
            up AS (INSERT INTO proj_run_power_device AS d (run_id, device, samples, watts_sum, window_samples,
                                                           window_watts_sum)
                   SELECT run_id, device, samples, watts_sum, window_samples, window_watts_sum FROM fresh
                   ON CONFLICT (run_id, device) DO UPDATE SET samples = d.samples + excluded.samples,
                       watts_sum = d.watts_sum + excluded.watts_sum,
                       window_samples = d.window_samples + excluded.window_samples,
                       window_watts_sum = d.window_watts_sum + excluded.window_watts_sum
                   RETURNING d.run_id, d.device, d.samples, d.watts_sum, d.window_samples, d.window_watts_sum),
            delta AS (SELECT up.run_id, sum(up.watts_sum / up.samples - coalesce(old.watts_sum / old.samples, 0)) AS watts,
                             sum(up.samples - coalesce(old.samples, 0)) AS samples,
                             sum(coalesce(up.window_watts_sum / nullif(up.window_samples, 0), 0)
                                 - coalesce(old.window_watts_sum / nullif(old.window_samples, 0), 0)) AS window_watts,
                             sum(up.window_samples - coalesce(old.window_samples, 0)) AS window_samples
                      FROM up LEFT JOIN old ON old.run_id = up.run_id AND old.device = up.device GROUP BY up.run_id),
            last AS (SELECT run_id, max(last_position) AS last_position FROM fresh GROUP BY run_id)
            INSERT INTO proj_run_power AS p (run_id, system_watts, samples, watts_exact, last_position, window_samples,
                                             window_watts_exact)
            SELECT d.run_id, d.watts::float8, d.samples, d.watts, l.last_position, d.window_samples, d.window_watts
            FROM delta d JOIN last l USING (run_id)
            ON CONFLICT (run_id) DO UPDATE SET watts_exact = p.watts_exact + excluded.watts_exact,
                system_watts = (p.watts_exact + excluded.watts_exact)::float8, samples = p.samples + excluded.samples,
                window_samples = p.window_samples + excluded.window_samples,
                window_watts_exact = p.window_watts_exact + excluded.window_watts_exact,
                last_position = excluded.last_position""".formatted(POWER.unnest("b0"));

    /** The batch's POWER samples per run and device index. */
    private static final class Pending {
        final Map<UUID, Long> firstPositions = new HashMap<>();
        final Map<List<Object>, PowerRow> rows = new LinkedHashMap<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        if (event.envelope().payload() instanceof MetricSampled m && m.series() == SeriesKind.POWER) {
            touched.sampled(m.runId());
            Pending pending = touched.state(Pending.class, Pending::new);
            long first = pending.firstPositions.computeIfAbsent(m.runId(), r -> event.position());
            for (Sample s : m.samples()) {
                int device = s.device() == null ? -1 : s.device();
                pending.rows.merge(
                        List.of(m.runId(), device),
                        PowerRow.empty(m.runId(), device, first, event.position())
                                .plus(s, event.position()),
                        (a, b) -> a.plus(s, event.position()));
            }
        }
    }

    @Override
    public void flush(Connection c, Touched touched) throws SQLException {
        Pending pending = touched.state(Pending.class, Pending::new);
        if (pending.rows.isEmpty()) {
            return;
        }
        Rows<PowerRow> rows = new Rows<>(POWER, ADD_POWER, r -> List.of(r.runId(), r.device()));
        pending.rows.values().stream()
                .map(r -> r.from(pending.firstPositions.get(r.runId())))
                .forEach(rows::add);
        rows.execute(c);
        pending.rows.clear();
        pending.firstPositions.clear();
    }

    /** Once the batch's series and results are written: the cells of the runs it touched or sampled. */
    void recompute(Connection c, Touched touched) throws SQLException {
        Set<UUID> runs = new LinkedHashSet<>(touched.runs());
        runs.addAll(touched.sampledRuns());
        Set<Touched.KeyMetricDevice> cells = new LinkedHashSet<>(touched.devices());
        if (!runs.isEmpty()) {
            cells.addAll(cells(c, RUN_CELLS, c.createArrayOf("uuid", runs.toArray())));
        }
        cells.forEach(cell -> touched.pageKey(cell.keyId()));
        recomputeCells(c, cells);
    }

    /** Every cell, from the read models (after a rebuild's replay, which leaves every run's power row). */
    void recomputeAll(Connection c) throws SQLException {
        List<Touched.KeyMetricDevice> all = new ArrayList<>(cells(c, ALL_CELLS, null));
        for (int i = 0; i < all.size(); i += 1000) {
            recomputeCells(c, new LinkedHashSet<>(all.subList(i, Math.min(all.size(), i + 1000))));
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
                SELECT t.key_id, t.metric, t.device_id, e.window_watts, e.mean, e.scope, e.device_count, e.valid
                FROM unnest(?::text[], ?::text[], ?::text[]) AS t(key_id, metric, device_id)
                CROSS JOIN LATERAL (
                    SELECT p.window_watts_exact::float8 AS window_watts, m.mean, m.scope, r.device_count,
                           coalesce(r.valid, false) AS valid
                    FROM proj_result m
                    JOIN proj_run r ON r.run_id = m.run_id
                    JOIN proj_run_power p ON p.run_id = m.run_id
                    WHERE m.key_id = t.key_id AND m.metric = t.metric AND m.device_id = t.device_id
                      AND r.status = 'completed' AND NOT r.retracted AND p.window_samples > 0
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
        if (!rows.isEmpty()) {
            insert(c, rows);
        }
    }

    private static void insert(Connection c, List<EnergyCell> rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_energy_cell (key_id, metric, device_id,
                    runs, joules_sum, joules_sq, watts_sum, device_seconds_sum, device_seconds_sq, joules_device_seconds,
                    failing_runs, failing_joules_sum, failing_joules_sq, failing_watts_sum, failing_device_seconds_sum,
                    failing_device_seconds_sq, failing_joules_device_seconds)
                SELECT * FROM unnest(?::text[], ?::text[], ?::text[],
                    ?::int[], ?::numeric[], ?::numeric[], ?::numeric[], ?::numeric[], ?::numeric[], ?::numeric[],
                    ?::int[], ?::numeric[], ?::numeric[], ?::numeric[], ?::numeric[], ?::numeric[], ?::numeric[])""")) {
            bindCells(c, ps, rows.stream().map(EnergyCell::cell).toList());
            bindSums(c, ps, 4, rows.stream().map(EnergyCell::counted).toList());
            bindSums(c, ps, 11, rows.stream().map(EnergyCell::failing).toList());
            ps.executeUpdate();
        }
    }

    /** The seven columns of {@link EnergyCell.Sums} from parameter {@code first} on. */
    private static void bindSums(Connection c, PreparedStatement ps, int first, List<EnergyCell.Sums> sums)
            throws SQLException {
        ps.setArray(
                first,
                c.createArrayOf("int4", sums.stream().map(EnergyCell.Sums::runs).toArray()));
        List<Function<EnergyCell.Sums, BigDecimal>> columns = List.of(
                EnergyCell.Sums::joules,
                EnergyCell.Sums::joulesSq,
                EnergyCell.Sums::watts,
                EnergyCell.Sums::deviceSeconds,
                EnergyCell.Sums::deviceSecondsSq,
                EnergyCell.Sums::joulesDeviceSeconds);
        for (int i = 0; i < columns.size(); i++) {
            ps.setArray(
                    first + 1 + i, numeric(c, sums.stream().map(columns.get(i)).toList()));
        }
    }

    private static EnergyCell.Run run(ResultSet rs) throws SQLException {
        double mean = rs.getDouble("mean");
        Double m = rs.wasNull() ? null : mean;
        int devices = rs.getInt("device_count");
        Integer d = rs.wasNull() ? null : devices;
        return new EnergyCell.Run(rs.getDouble("window_watts"), m, rs.getString("scope"), d, rs.getBoolean("valid"));
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
