package dev.podium.ingest.projection;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** The fleet view's per-run rows: what a run adds now (from the read models) and what it added before. */
final class FleetRuns {

    /** Longer device identities are cut to this many characters: one run names one unit, whatever it claims. */
    static final int MAX_IDENTITY = 128;

    private static final ObjectMapper MAPPER = EventCodec.newMapper();

    private FleetRuns() {}

    /**
     * What each run adds now, read from proj_run, its agent's pool, its devices (V118) and its results; a run that has
     * not started (no host yet) adds nothing.
     */
    static Map<UUID, FleetRun> current(Connection c, List<UUID> runs, Map<UUID, FleetRun.About> about)
            throws SQLException {
        Map<UUID, FleetRun> out = new TreeMap<>();
        Map<UUID, Map<String, Double>> means = new HashMap<>();
        Map<UUID, Map<String, String>> units = new HashMap<>();
        means(c, runs, means, units);
        try (PreparedStatement ps = c.prepareStatement(CURRENT)) {
            ps.setInt(1, MAX_IDENTITY);
            ps.setArray(2, uuids(c, runs));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    UUID run = rs.getObject("run_id", UUID.class);
                    FleetRun.Unit unit =
                            new FleetRun.Unit(rs.getString("pool"), rs.getString("host_key"), rs.getString("device"));
                    FleetRun.Outcome outcome = FleetRun.Outcome.of(
                            rs.getString("status"), (Boolean) rs.getObject("valid"), rs.getBoolean("retracted"));
                    String keyId = rs.getString("key_id");
                    FleetRun r = new FleetRun(run, unit, keyId, outcome, Map.of());
                    out.put(
                            run,
                            r.counted()
                                    ? new FleetRun(run, unit, keyId, outcome, means.getOrDefault(run, Map.of()))
                                    : r);
                    about.put(
                            run,
                            new FleetRun.About(
                                    rs.getString("hostname"),
                                    rs.getString("agent_id"),
                                    rs.getString("device_id"),
                                    rs.getString("driver"),
                                    rs.getString("runtime"),
                                    rs.getString("firmware"),
                                    rs.getLong("started_position"),
                                    units.getOrDefault(run, Map.of())));
                }
            }
        }
        return out;
    }

    private static final String CURRENT = """
            SELECT r.run_id, r.status, r.valid, r.retracted, r.key_id, r.host_key,
                   r.host->>'hostname' AS hostname, r.agent_id, coalesce(a.pool, '') AS pool,
                   coalesce(r.started_position, 0) AS started_position, r.accelerators->0->>'device_id' AS device_id,
                   r.accelerators->0->>'driver' AS driver, r.accelerators->0->>'runtime' AS runtime,
                   r.accelerators->0->>'firmware' AS firmware,
                   CASE WHEN jsonb_typeof(h.devices) = 'array' AND jsonb_array_length(h.devices) = 1
                        THEN left(coalesce(h.devices->0->>'identity', ''), ?) ELSE '' END AS device
            FROM proj_run r
            LEFT JOIN proj_agent a ON a.agent_id = r.agent_id
            LEFT JOIN proj_run_throttle_head h ON h.run_id = r.run_id
            WHERE r.run_id = ANY(?::uuid[]) AND r.host_key IS NOT NULL""";

    /** The finite means of the runs' results, and their units. */
    private static void means(
            Connection c, List<UUID> runs, Map<UUID, Map<String, Double>> means, Map<UUID, Map<String, String>> units)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT run_id, metric, mean, unit FROM proj_result
                WHERE run_id = ANY(?::uuid[]) AND mean IS NOT NULL AND mean NOT IN ('NaN', 'Infinity', '-Infinity')""")) {
            ps.setArray(1, uuids(c, runs));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    UUID run = rs.getObject(1, UUID.class);
                    means.computeIfAbsent(run, r -> new TreeMap<>()).put(rs.getString(2), rs.getDouble(3));
                    units.computeIfAbsent(run, r -> new HashMap<>()).put(rs.getString(2), rs.getString(4));
                }
            }
        }
    }

    /** What each run added before, its row locked (in run id order). */
    static Map<UUID, FleetRun> stored(Connection c, List<UUID> runs) throws SQLException {
        Map<UUID, FleetRun> out = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT run_id, pool, host_key, device, key_id, outcome, means::text FROM proj_fleet_run
                WHERE run_id = ANY(?::uuid[]) ORDER BY run_id FOR UPDATE""")) {
            ps.setArray(1, uuids(c, runs));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    UUID run = rs.getObject(1, UUID.class);
                    out.put(
                            run,
                            new FleetRun(
                                    run,
                                    new FleetRun.Unit(rs.getString(2), rs.getString(3), rs.getString(4)),
                                    rs.getString(5),
                                    FleetRun.Outcome.valueOf(rs.getString(6)),
                                    means(rs.getString(7))));
                }
            }
        }
        return out;
    }

    /** Writes what the runs add now; a run no longer on record loses its row. */
    static void store(Connection c, Collection<FleetRun> runs, Collection<UUID> gone) throws SQLException {
        try (PreparedStatement upsert = c.prepareStatement("""
                        INSERT INTO proj_fleet_run (run_id, pool, host_key, device, key_id, outcome, means)
                        VALUES (?, ?, ?, ?, ?, ?, ?::jsonb)
                        ON CONFLICT (run_id) DO UPDATE SET pool = excluded.pool, host_key = excluded.host_key,
                            device = excluded.device, key_id = excluded.key_id, outcome = excluded.outcome,
                            means = excluded.means""");
                PreparedStatement delete = c.prepareStatement("DELETE FROM proj_fleet_run WHERE run_id = ?")) {
            for (FleetRun r : runs) {
                upsert.setObject(1, r.runId());
                upsert.setString(2, r.unit().pool());
                upsert.setString(3, r.unit().hostKey());
                upsert.setString(4, r.unit().device());
                upsert.setString(5, r.keyId());
                upsert.setString(6, r.outcome().name());
                upsert.setString(7, r.means().isEmpty() ? null : Json.of(r.means()));
                upsert.addBatch();
            }
            for (UUID run : gone) {
                delete.setObject(1, run);
                delete.addBatch();
            }
            upsert.executeBatch();
            delete.executeBatch();
        }
    }

    private static Map<String, Double> means(String json) {
        if (json == null) {
            return Map.of();
        }
        try {
            return new TreeMap<>(MAPPER.readValue(json, new TypeReference<Map<String, Double>>() {}));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored proj_fleet_run.means does not bind", e);
        }
    }

    static Array uuids(Connection c, Collection<UUID> runs) throws SQLException {
        return c.createArrayOf("uuid", runs.toArray(new UUID[0]));
    }
}
