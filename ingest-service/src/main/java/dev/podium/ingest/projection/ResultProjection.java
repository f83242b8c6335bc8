package dev.podium.ingest.projection;

import dev.podium.events.model.Metric;
import dev.podium.events.model.PercentileBounds;
import dev.podium.events.model.Percentiles;
import dev.podium.events.model.Statistics;
import dev.podium.events.run.RunCompleted;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * {@code proj_result}: one row per metric of a completed run, raw values and statistics. Where there are raw values the
 * statistics are the server's own ({@link Statistics#of}); figures sent without values are kept as reported, and the
 * row says so ({@code statistics_source}).
 */
@ApplicationScoped
public class ResultProjection implements Projection {

    /**
     * A {@code proj_result} row as this projection writes it (the key and device come from the run row);
     * {@code rawValues} is a float8[] literal ({@link #arrayLiteral}), since an array of arrays cannot be a column of
     * unnest.
     */
    private record ResultRow(
            UUID runId,
            String metric,
            String unit,
            String direction,
            String scope,
            boolean warmupExcluded,
            Integer n,
            Double mean,
            Double median,
            Double stdev,
            Double min,
            Double max,
            Double ci95Low,
            Double ci95High,
            Double cv,
            String rawValues,
            Integer requests,
            Double p50,
            Double p50Low,
            Double p50High,
            Double p90,
            Double p90Low,
            Double p90High,
            Double p99,
            Double p99Low,
            Double p99High) {

        /**
         * The server's own figures where there are raw values; a harness's own ones (no values) as reported; the
         * percentiles of per-request values as the agent sent them (ingest checked they are consistent with their count).
         */
        static ResultRow of(UUID runId, Metric m) {
            Statistics s = m.values() != null && !m.values().isEmpty() ? Statistics.of(m.values()) : m.statistics();
            Percentiles p = m.percentiles();
            return new ResultRow(
                    runId,
                    m.name(),
                    m.unit(),
                    m.direction().name(),
                    m.scope().name(),
                    m.warmupExcluded(),
                    s == null ? null : s.n(),
                    s == null ? null : s.mean(),
                    s == null ? null : s.median(),
                    s == null ? null : s.stdev(),
                    s == null ? null : s.min(),
                    s == null ? null : s.max(),
                    s == null ? null : s.ci95Low(),
                    s == null ? null : s.ci95High(),
                    s == null ? null : s.cv(),
                    arrayLiteral(m.values()),
                    p == null ? null : p.n(),
                    p == null ? null : p.p50(),
                    low(p == null ? null : p.p50Bounds()),
                    high(p == null ? null : p.p50Bounds()),
                    p == null ? null : p.p90(),
                    low(p == null ? null : p.p90Bounds()),
                    high(p == null ? null : p.p90Bounds()),
                    p == null ? null : p.p99(),
                    low(p == null ? null : p.p99Bounds()),
                    high(p == null ? null : p.p99Bounds()));
        }

        private static Double low(PercentileBounds b) {
            return b == null ? null : b.low();
        }

        private static Double high(PercentileBounds b) {
            return b == null ? null : b.high();
        }

        Touched.Result key() {
            return new Touched.Result(runId, metric);
        }
    }

    private static final Columns<ResultRow> RESULT = Columns.of(ResultRow.class);

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
     * One statement for every result of the batch so far, after {@link RunProjection#drain} (the run rows it reads the
     * key and device from are written by then). The rows it inserted, as opposed to updated ({@code xmax = 0} in
     * {@code RETURNING}), are noted in {@link Touched}: a leaderboard row can take those in without reading its other runs.
     */
    @Override
    public void drain(Connection c, Touched touched) throws SQLException {
        List<RunCompleted> runs = touched.state(Pending.class, Pending::new).runs;
        if (runs.isEmpty()) {
            return;
        }
        Rows<ResultRow> rows = new Rows<>(RESULT, UPSERT, ResultRow::key);
        for (RunCompleted r : runs) {
            for (Metric m : r.metrics()) {
                rows.add(ResultRow.of(r.runId(), m));
            }
        }
        rows.execute(c, rs -> {
            if (rs.getBoolean(3)) {
                touched.newResult(rs.getObject(1, UUID.class), rs.getString(2));
            }
        });
        runs.clear();
    }

    private static final String UPSERT = """
            INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n, mean,
                                     median, stdev, min, max, ci95_low, ci95_high, cv, raw_values, requests, p50, p50_low,
                                     p50_high, p90, p90_low, p90_high, p99, p99_low, p99_high)
            SELECT x.run_id, x.metric, x.unit, x.direction, x.scope, x.warmup_excluded, r.key_id, r.device_id, x.n, x.mean,
                   x.median, x.stdev, x.min, x.max, x.ci95_low, x.ci95_high, x.cv, x.raw_values::float8[], x.requests, x.p50,
                   x.p50_low, x.p50_high, x.p90, x.p90_low, x.p90_high, x.p99, x.p99_low, x.p99_high
            FROM %s
            LEFT JOIN proj_run r ON r.run_id = x.run_id
            ORDER BY x.ord
            ON CONFLICT (run_id, metric) DO UPDATE SET unit = excluded.unit, direction = excluded.direction,
                scope = excluded.scope, warmup_excluded = excluded.warmup_excluded, key_id = excluded.key_id,
                device_id = excluded.device_id, n = excluded.n, mean = excluded.mean, median = excluded.median,
                stdev = excluded.stdev, min = excluded.min, max = excluded.max, ci95_low = excluded.ci95_low,
                ci95_high = excluded.ci95_high, cv = excluded.cv, raw_values = excluded.raw_values,
                requests = excluded.requests, p50 = excluded.p50, p50_low = excluded.p50_low, p50_high = excluded.p50_high,
                p90 = excluded.p90, p90_low = excluded.p90_low, p90_high = excluded.p90_high, p99 = excluded.p99,
                p99_low = excluded.p99_low, p99_high = excluded.p99_high
            RETURNING run_id, metric, xmax = 0""".formatted(RESULT.unnestWithOrdinality("x"));

    /**
     * Raw values as a float8[] literal. {@link Double#toString}
     * gives a text that reads back as the same double (NaN and infinities included), so the stored values are exact.
     */
    static String arrayLiteral(List<Double> values) {
        if (values == null) {
            return null;
        }
        StringBuilder b = new StringBuilder(values.size() * 8 + 2).append('{');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            Double v = values.get(i);
            b.append(v == null ? "NULL" : v.toString());
        }
        return b.append('}').toString();
    }
}
