package dev.podium.ingest.projection;

import dev.podium.events.model.Metric;
import dev.podium.events.model.Statistics;
import dev.podium.events.run.RunCompleted;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code proj_result}: one row per metric of a completed run, raw values and statistics. Statistics the agent sent are
 * kept; when it sent only raw values they are computed here with {@link Statistics#of}.
 */
@ApplicationScoped
public class ResultProjection implements Projection {

    /** Completed runs of this batch whose results are not sent yet. */
    private static final class Pending {
        final List<RunCompleted> runs = new ArrayList<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        if (!(event.envelope().payload() instanceof RunCompleted r) || r.metrics() == null) {
            return;
        }
        touched.state(Pending.class, Pending::new).runs.add(r);
        touched.run(r.runId());
    }

    /**
     * One JDBC batch for every result of the batch so far, after {@link RunProjection#drain} (the run rows it reads the
     * key and device from are written by then).
     */
    @Override
    public void drain(Connection c, Touched touched) throws SQLException {
        List<RunCompleted> runs = touched.state(Pending.class, Pending::new).runs;
        if (runs.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n, mean,
                                         median, stdev, min, max, ci95_low, ci95_high, cv, raw_values)
                SELECT ?, ?, ?, ?, ?, ?, r.key_id, r.device_id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
                FROM (SELECT NULL) AS one
                LEFT JOIN proj_run r ON r.run_id = ?
                ON CONFLICT (run_id, metric) DO UPDATE SET unit = excluded.unit, direction = excluded.direction,
                    scope = excluded.scope, warmup_excluded = excluded.warmup_excluded, key_id = excluded.key_id,
                    device_id = excluded.device_id, n = excluded.n, mean = excluded.mean, median = excluded.median,
                    stdev = excluded.stdev, min = excluded.min, max = excluded.max, ci95_low = excluded.ci95_low,
                    ci95_high = excluded.ci95_high, cv = excluded.cv, raw_values = excluded.raw_values""")) {
            for (RunCompleted r : runs) {
                for (Metric m : r.metrics()) {
                    Statistics s = m.statistics() != null ? m.statistics()
                            : m.values() == null || m.values().isEmpty() ? null : Statistics.of(m.values());
                    int i = 1;
                    Sql.setUuid(ps, i++, r.runId());
                    ps.setString(i++, m.name());
                    ps.setString(i++, m.unit());
                    ps.setString(i++, m.direction().name());
                    ps.setString(i++, m.scope().name());
                    ps.setBoolean(i++, m.warmupExcluded());
                    Sql.setInt(ps, i++, s == null ? null : s.n());
                    Sql.setDouble(ps, i++, s == null ? null : s.mean());
                    Sql.setDouble(ps, i++, s == null ? null : s.median());
                    Sql.setDouble(ps, i++, s == null ? null : s.stdev());
                    Sql.setDouble(ps, i++, s == null ? null : s.min());
                    Sql.setDouble(ps, i++, s == null ? null : s.max());
                    Sql.setDouble(ps, i++, s == null ? null : s.ci95Low());
                    Sql.setDouble(ps, i++, s == null ? null : s.ci95High());
                    Sql.setDouble(ps, i++, s == null ? null : s.cv());
                    ps.setArray(i++, m.values() == null ? null : c.createArrayOf("float8", m.values().toArray()));
                    Sql.setUuid(ps, i, r.runId());
                    ps.addBatch();
                }
            }
            ps.executeBatch();
        }
        runs.clear();
    }
}
