package dev.podium.query.stats;

import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The SQL of the statistics features: per-repetition values and power series. Bounded, bound parameters,
 * on the leading columns of proj_result (key_id, metric, device_id) and proj_run_series (run_id, ...). "Counted" runs are
 * completed, not retracted runs (superseded runs have another status); {@code includeFailing} also counts runs that
 * failed a validity check.
 */
@ApplicationScoped
public class StatsQueries {

    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = dev.podium.events.codec.EventCodec.newMapper();

    private final Jdbc jdbc;
    private final QueryConfig config;

    public StatsQueries(DataSource dataSource, QueryConfig config) {
        this.jdbc = new Jdbc(dataSource);
        this.config = config;
    }

    /** One counted run's result: its device, key, per-repetition values and what ratios and costs need. */
    public record RunValues(UUID runId, String keyId, String deviceId, Integer deviceCount, String scope, String unit, String direction,
            Double mean, double[] rawValues, boolean valid) {
    }

    public List<RunValues> runValues(List<String> keyIds, String metric, boolean includeFailing) {
        return jdbc.list("SELECT m.run_id, m.key_id, m.device_id, r.device_count, m.scope, m.unit, m.direction, m.mean, m.raw_values, "
                + "coalesce(r.valid, false) AS valid FROM proj_result m JOIN proj_run r ON r.run_id = m.run_id "
                + "WHERE m.key_id = ANY(?) AND m.metric = ? AND r.status = 'completed' AND NOT r.retracted "
                + "AND (r.valid OR ?) LIMIT ?",
                rs -> new RunValues(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), Jdbc.integer(rs, "device_count"),
                        rs.getString(5), rs.getString(6), rs.getString(7), Jdbc.dbl(rs, "mean"), doubles(rs.getArray(9)),
                        rs.getBoolean(10)),
                keyIds.toArray(String[]::new), metric, includeFailing, config.maxRows() * 100);
    }

    /** The keys among {@code keyIds} with a run that recorded POWER samples and has a result for the metric. */
    public List<String> keysWithPower(List<String> keyIds, String metric) {
        return jdbc.list("SELECT DISTINCT m.key_id FROM proj_result m WHERE m.key_id = ANY(?) AND m.metric = ? AND EXISTS "
                + "(SELECT 1 FROM proj_run_series s WHERE s.run_id = m.run_id AND s.series = 'POWER')", rs -> rs.getString(1),
                keyIds.toArray(String[]::new), metric);
    }

    /** The POWER samples of runs, as JSON text per stored chunk. */
    public List<String[]> powerSeries(List<UUID> runIds) {
        return jdbc.list("SELECT run_id::text, samples::text FROM proj_run_series WHERE run_id = ANY(?::uuid[]) AND series = 'POWER' "
                + "ORDER BY run_id, position LIMIT 20000", rs -> new String[] {rs.getString(1), rs.getString(2)},
                (Object) runIds.stream().map(UUID::toString).toArray(String[]::new));
    }

    /**
     * Average system power (W) per run from its POWER samples ({@link Efficiency#systemWatts}); runs without samples are
     * absent.
     */
    public java.util.Map<UUID, Double> systemWatts(List<UUID> runIds) {
        java.util.Map<UUID, Double> out = new java.util.HashMap<>();
        if (runIds.isEmpty()) {
            return out;
        }
        java.util.Map<UUID, List<double[]>> samples = new java.util.HashMap<>();
        for (String[] chunk : powerSeries(runIds)) {
            List<double[]> list = samples.computeIfAbsent(UUID.fromString(chunk[0]), k -> new java.util.ArrayList<>());
            try {
                for (com.fasterxml.jackson.databind.JsonNode s : MAPPER.readTree(chunk[1])) {
                    double w = s.path("value").asDouble(Double.NaN);
                    if (Double.isFinite(w) && w >= 0) {
                        list.add(new double[] {s.path("device").asInt(-1), w});
                    }
                }
            } catch (java.io.IOException e) {
                // an unreadable chunk adds nothing
            }
        }
        samples.forEach((run, list) -> {
            Double w = Efficiency.systemWatts(list);
            if (w != null) {
                out.put(run, w);
            }
        });
        return out;
    }

    static double[] doubles(Array array) throws SQLException {
        if (array == null) {
            return new double[0];
        }
        Object[] values = (Object[]) array.getArray();
        return java.util.Arrays.stream(values).filter(v -> v != null).mapToDouble(v -> ((Number) v).doubleValue()).toArray();
    }
}
