package dev.podium.bench;

import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.device.DeviceModel;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.model.Host;
import dev.podium.events.model.Metric;
import dev.podium.events.model.RunMeans;
import dev.podium.events.model.Statistics;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The cheapest program that writes what ingest writes for result events: the event_store rows and the run, result,
 * catalog and leaderboard rows, from events already decoded in memory, one transaction per batch, every table as one
 * JDBC batch (the connection should have {@code reWriteBatchedInserts=true}). It verifies nothing, never reads the
 * database back (leaderboard aggregates are kept in memory) and writes each run row once with its final values.
 */
final class BaselineWriter {

    /** An event prepared outside the timed part: JSON of the payload and the hash of the record bytes. */
    record Prepared(Envelope envelope, String payloadJson, String hash, int partition, long offset) {}

    private record LeaderKey(String keyId, String metric, String deviceId) {}

    /** A leaderboard row's content; the first run is the first seen, which needs no ordering of run ids. */
    private record RowSums(RunMeans means, int n, Timestamp last, UUID firstRunId) {

        RowSums plus(double mean, int runN, Timestamp at, UUID runId) {
            return new RowSums(
                    means.plus(mean),
                    n + runN,
                    last == null || at.after(last) ? at : last,
                    firstRunId == null ? runId : firstRunId);
        }
    }

    private final EventCodec codec;
    private final Map<LeaderKey, RowSums> leaderboard = new HashMap<>();
    private final Map<UUID, RunStarted> startedRuns = new HashMap<>();

    BaselineWriter(EventCodec codec) {
        this.codec = codec;
    }

    Prepared prepare(Envelope e, byte[] value, long offset) throws Exception {
        return new Prepared(
                e, codec.mapper().writeValueAsString(e.payload()), EventCodec.contentHash(value), 0, offset);
    }

    void writeBatch(Connection c, List<Prepared> batch) throws Exception {
        c.setAutoCommit(false);
        List<Long> positions = appendEvents(c, batch);
        Rows rows = new Rows();
        for (int i = 0; i < batch.size(); i++) {
            Envelope e = batch.get(i).envelope();
            long position = positions.get(i);
            if (e.payload() instanceof RunStarted r) {
                started(rows, e, r, position);
            } else if (e.payload() instanceof RunCompleted r) {
                completed(rows, e, r, position);
            }
        }
        writeCatalog(c, rows.hosts(), rows.devices(), rows.benchmarks(), rows.keys());
        writeRuns(c, rows.runs());
        writeResults(c, rows.results());
        writeLeaderboard(c, rows.touched().keySet());
        c.commit();
    }

    /** What one batch writes beside its events, in the order the events came. */
    private record Rows(
            Map<UUID, Object[]> runs,
            List<Object[]> results,
            Map<String, ComparisonKey> keys,
            Map<String, Long> devices,
            Map<String, Long> benchmarks,
            Map<String, Object[]> hosts,
            Map<LeaderKey, Boolean> touched) {

        Rows() {
            this(
                    new LinkedHashMap<>(),
                    new ArrayList<>(),
                    new LinkedHashMap<>(),
                    new LinkedHashMap<>(),
                    new LinkedHashMap<>(),
                    new LinkedHashMap<>(),
                    new LinkedHashMap<>());
        }
    }

    /** The batch's event_store rows, as one JDBC batch; their positions, in the batch's order. */
    private static List<Long> appendEvents(Connection c, List<Prepared> batch) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO event_store (event_id, stream_id, seq, type, schema_version, writer, key_id, occurred_at,
                                         kafka_topic, kafka_partition, kafka_offset, payload, payload_hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?) RETURNING position""", new String[] {"position"})) {
            for (Prepared p : batch) {
                Envelope e = p.envelope();
                ps.setObject(1, e.eventId());
                ps.setString(2, e.streamId());
                ps.setLong(3, e.seq());
                ps.setString(4, e.type().name());
                ps.setInt(5, e.schemaVersion());
                ps.setString(6, e.agentId());
                ps.setString(7, "bench-key");
                ps.setTimestamp(8, ts(e.occurredAt()));
                ps.setString(9, "podium.events");
                ps.setInt(10, p.partition());
                ps.setLong(11, p.offset());
                ps.setString(12, p.payloadJson());
                ps.setString(13, p.hash());
                ps.addBatch();
            }
            ps.executeBatch();
            List<Long> positions = new ArrayList<>(batch.size());
            try (ResultSet rs = ps.getGeneratedKeys()) {
                while (rs.next()) {
                    positions.add(rs.getLong(1));
                }
            }
            return positions;
        }
    }

    /** A started run: its host, device, benchmark and key for the catalog, and its run row. */
    private void started(Rows rows, Envelope e, RunStarted r, long position) {
        startedRuns.put(r.runId(), r);
        Accelerator a = r.accelerators().get(0);
        rows.hosts().put(r.host().machineId(), new Object[] {r.host(), position});
        rows.devices().put(a.deviceId(), position);
        rows.benchmarks().put(r.key().benchmark(), position);
        rows.keys().putIfAbsent(r.key().id(), r.key());
        rows.runs().put(r.runId(), new Object[] {e, r, null, null, position, position});
    }

    /** A completed run: its run row's completion, its results and, where its start was seen, its leaderboard rows. */
    private void completed(Rows rows, Envelope e, RunCompleted r, long position) {
        Object[] row = rows.runs().computeIfAbsent(r.runId(), id -> new Object[6]);
        row[2] = e;
        row[3] = r;
        row[5] = position;
        RunStarted s = startedRuns.get(r.runId());
        for (Metric m : r.metrics()) {
            rows.results().add(new Object[] {r.runId(), m, s});
            if (s != null) {
                LeaderKey k = new LeaderKey(
                        s.key().id(), m.name(), s.accelerators().get(0).deviceId());
                leaderboard.put(
                        k,
                        leaderboard
                                .getOrDefault(k, new RowSums(RunMeans.NONE, 0, null, null))
                                .plus(m.statistics().mean(), m.statistics().n(), ts(e.occurredAt()), r.runId()));
                rows.touched().put(k, true);
            }
        }
    }

    private void writeCatalog(
            Connection c,
            Map<String, Object[]> hosts,
            Map<String, Long> devices,
            Map<String, Long> benchmarks,
            Map<String, ComparisonKey> keys)
            throws Exception {
        writeHosts(c, hosts);
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_device (device_id, vendor, label, last_position) VALUES (?, ?, ?, ?)
                ON CONFLICT (device_id) DO UPDATE SET last_position = excluded.last_position""")) {
            for (var d : devices.entrySet()) {
                var model = DeviceAliases.byId(d.getKey());
                ps.setString(1, d.getKey());
                ps.setString(2, model.map(DeviceModel::vendor).orElse(null));
                ps.setString(3, model.map(DeviceModel::label).orElse(null));
                ps.setLong(4, d.getValue());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_benchmark (benchmark, last_position) VALUES (?, ?)
                ON CONFLICT (benchmark) DO UPDATE SET last_position = excluded.last_position""")) {
            for (var b : benchmarks.entrySet()) {
                ps.setString(1, b.getKey());
                ps.setLong(2, b.getValue());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_comparison_key (key_id, benchmark, canonical, dimensions) VALUES (?, ?, ?, ?::jsonb)
                ON CONFLICT (key_id) DO NOTHING""")) {
            for (ComparisonKey k : keys.values()) {
                ps.setString(1, k.id());
                ps.setString(2, k.benchmark());
                ps.setString(3, k.canonical());
                ps.setString(4, codec.mapper().writeValueAsString(k.dimensions()));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The hosts' rows, each with the position of the last run start seen on it. */
    private static void writeHosts(Connection c, Map<String, Object[]> hosts) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_host (host_key, hostname, machine_id, cpu_model, sockets, cores, threads, memory_bytes, os,
                                       kernel, last_position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (host_key) DO UPDATE SET last_position = excluded.last_position""")) {
            for (Object[] h : hosts.values()) {
                var host = (Host) h[0];
                ps.setString(1, host.machineId());
                ps.setString(2, host.hostname());
                ps.setString(3, host.machineId());
                ps.setString(4, host.cpuModel());
                ps.setInt(5, host.sockets());
                ps.setInt(6, host.cores());
                ps.setInt(7, host.threads());
                ps.setLong(8, host.memoryBytes());
                ps.setString(9, host.os());
                ps.setString(10, host.kernel());
                ps.setLong(11, (Long) h[1]);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private void writeRuns(Connection c, Map<UUID, Object[]> runs) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_run (run_id, stream_id, agent_id, status, benchmark, key_id, device_id, device_count,
                                      host_key, workload, software, accelerators, host, started_at, finished_at,
                                      duration_seconds, validity, valid, started_position, last_position)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?, ?::jsonb, ?, ?, ?)
                ON CONFLICT (run_id) DO UPDATE SET status = excluded.status, finished_at = excluded.finished_at,
                    duration_seconds = excluded.duration_seconds, validity = excluded.validity, valid = excluded.valid,
                    last_position = excluded.last_position""")) {
            for (var entry : runs.entrySet()) {
                Object[] row = entry.getValue();
                Envelope se = (Envelope) row[0];
                RunStarted s = (RunStarted) row[1];
                Envelope ce = (Envelope) row[2];
                RunCompleted done = (RunCompleted) row[3];
                Envelope any = se != null ? se : ce;
                ps.setObject(1, entry.getKey());
                ps.setString(2, any.streamId());
                ps.setString(3, any.agentId());
                ps.setString(4, done != null ? "completed" : "running");
                ps.setString(5, s == null ? null : s.key().benchmark());
                ps.setString(6, s == null ? null : s.key().id());
                ps.setString(7, s == null ? null : s.accelerators().get(0).deviceId());
                if (s == null) {
                    ps.setNull(8, Types.INTEGER);
                } else {
                    ps.setInt(
                            8,
                            s.accelerators().stream()
                                    .mapToInt(Accelerator::total)
                                    .sum());
                }
                ps.setString(9, s == null ? null : s.host().machineId());
                ps.setString(10, s == null ? null : codec.mapper().writeValueAsString(s.workload()));
                ps.setString(11, s == null ? null : codec.mapper().writeValueAsString(s.software()));
                ps.setString(12, s == null ? null : codec.mapper().writeValueAsString(s.accelerators()));
                ps.setString(13, s == null ? null : codec.mapper().writeValueAsString(s.host()));
                ps.setTimestamp(14, se == null ? null : ts(se.occurredAt()));
                ps.setTimestamp(15, ce == null ? null : ts(ce.occurredAt()));
                if (done == null) {
                    ps.setNull(16, Types.DOUBLE);
                    ps.setNull(17, Types.OTHER);
                    ps.setNull(18, Types.BOOLEAN);
                } else {
                    ps.setDouble(16, done.durationSeconds());
                    ps.setString(17, codec.mapper().writeValueAsString(done.validity()));
                    ps.setBoolean(18, done.validity().stream().allMatch(ValidityCheck::passed));
                }
                if (row[4] == null) {
                    ps.setNull(19, Types.BIGINT);
                } else {
                    ps.setLong(19, (Long) row[4]);
                }
                ps.setLong(20, (Long) row[5]);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private void writeResults(Connection c, List<Object[]> results) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_result (run_id, metric, unit, direction, scope, warmup_excluded, key_id, device_id, n,
                                         mean, median, stdev, min, max, ci95_low, ci95_high, cv, raw_values)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (Object[] r : results) {
                Metric m = (Metric) r[1];
                RunStarted s = (RunStarted) r[2];
                Statistics st = m.statistics();
                ps.setObject(1, r[0]);
                ps.setString(2, m.name());
                ps.setString(3, m.unit());
                ps.setString(4, m.direction().name());
                ps.setString(5, m.scope().name());
                ps.setBoolean(6, m.warmupExcluded());
                ps.setString(7, s == null ? null : s.key().id());
                ps.setString(8, s == null ? null : s.accelerators().get(0).deviceId());
                ps.setInt(9, st.n());
                ps.setDouble(10, st.mean());
                ps.setDouble(11, st.median());
                ps.setDouble(12, st.stdev());
                ps.setDouble(13, st.min());
                ps.setDouble(14, st.max());
                ps.setDouble(15, st.ci95Low());
                ps.setDouble(16, st.ci95High());
                ps.setDouble(17, st.cv());
                ps.setArray(18, c.createArrayOf("float8", m.values().toArray()));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private void writeLeaderboard(Connection c, Iterable<LeaderKey> touched) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_leaderboard_row (key_id, metric, device_id, source, benchmark, unit, direction, runs, n,
                                                  mean, ci95_low, ci95_high, best, cv, last_run_at, mean_sum,
                                                  mean_sum_squares, mean_min, mean_max, first_run_id)
                VALUES (?, ?, ?, 'measured', 'bench-finetune', 'samples/s', 'HIGHER_IS_BETTER', ?, ?, ?, ?, ?, ?, ?, ?, ?,
                        ?, ?, ?, ?)
                ON CONFLICT (key_id, metric, device_id, source) DO UPDATE SET runs = excluded.runs, n = excluded.n,
                    mean = excluded.mean, ci95_low = excluded.ci95_low, ci95_high = excluded.ci95_high,
                    best = excluded.best, cv = excluded.cv, last_run_at = excluded.last_run_at,
                    mean_sum = excluded.mean_sum, mean_sum_squares = excluded.mean_sum_squares,
                    mean_min = excluded.mean_min, mean_max = excluded.mean_max""")) {
            for (LeaderKey k : touched) {
                RowSums row = leaderboard.get(k);
                RunMeans m = row.means();
                RunMeans.Figures f = m.figures();
                ps.setString(1, k.keyId());
                ps.setString(2, k.metric());
                ps.setString(3, k.deviceId());
                ps.setInt(4, m.runs());
                ps.setInt(5, row.n());
                ps.setDouble(6, f.mean());
                ps.setDouble(7, f.ci95Low());
                ps.setDouble(8, f.ci95High());
                ps.setDouble(9, m.best(Direction.HIGHER_IS_BETTER));
                ps.setDouble(10, f.cv());
                ps.setTimestamp(11, row.last());
                ps.setBigDecimal(12, m.sum());
                ps.setBigDecimal(13, m.sumOfSquares());
                ps.setDouble(14, m.min());
                ps.setDouble(15, m.max());
                ps.setObject(16, row.firstRunId());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static Timestamp ts(Instant i) {
        return Timestamp.from(i.truncatedTo(ChronoUnit.MICROS));
    }
}
