package dev.podium.ingest.projection;

import dev.podium.events.Envelope;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunStarted;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code proj_run}: one row per run and its status (claimed, running, completed, failed, cancelled, superseded). A run
 * of an earlier lease epoch, or of a job that was never granted to it (a claim that lost, or an agent that did not wait
 * for its grant), is superseded and stays so whatever it reports later: only the granted run of a job counts. Any of a
 * run's events may create its row, so a later event never depends on an earlier one having arrived.
 */
@ApplicationScoped
public class RunProjection implements Projection {

    /** Statuses an event may replace; terminal ones and superseded stay. */
    private static final String KEEP_SUPERSEDED = "CASE WHEN proj_run.status = 'superseded' THEN 'superseded' ELSE excluded.status END";

    /**
     * What this batch deferred: self-started runs (the values of {@link #STARTED_ROWS}) and run ends (those of
     * {@link #FINISHED_ROWS}), each list in event order.
     */
    private static final class Pending {
        final List<Object[]> started = new ArrayList<>();
        final List<Object[]> finished = new ArrayList<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        Envelope env = event.envelope();
        Object p = env.payload();
        if (p instanceof RunStarted r) {
            if (r.jobId() == null) {
                Pending pending = touched.state(Pending.class, Pending::new);
                pending.started.add(startedRow(env, r, event.position()));
                touched.run(r.runId());
            } else {
                started(c, env, r, event.position(), touched);
            }
        } else if (p instanceof JobClaimed j) {
            claimed(c, env, j, event.position());
        } else if (p instanceof RunCompleted r) {
            finished(env, r.runId(), "completed", r.durationSeconds(), Json.of(r.validity()), allPassed(r.validity()),
                    null, event.position(), touched);
        } else if (p instanceof RunFailed f) {
            finished(env, f.runId(), "failed", null, null, null, Json.of(failure(f)), event.position(), touched);
        } else if (p instanceof RunCancelled x) {
            finished(env, x.runId(), "cancelled", null, null, null,
                    Json.of(x.reason() == null ? Map.of() : Map.of("reason", x.reason())), event.position(), touched);
        }
    }

    /**
     * Sends the deferred upserts: self-started runs, then run ends (the two commute: neither overrides what the other
     * sets, and both keep a terminal or superseded status), then gives results stored before their RunStarted the key
     * and device it named, in one statement. A run that started and ended in this batch is written once, its end
     * merged into its start's row (one insert instead of an insert and an update of the same row). Only a RunStarted
     * that found its run row already there (a claim, a run end or an earlier RunStarted wrote it) can have results
     * stored before it: a new row has none.
     */
    @Override
    public void drain(Connection c, Touched touched) throws SQLException {
        Pending pending = touched.state(Pending.class, Pending::new);
        Map<java.util.UUID, Object[]> unended = new java.util.HashMap<>();
        for (Object[] row : pending.started) {
            unended.putIfAbsent((java.util.UUID) row[0], row);
        }
        Rows started = new Rows(STARTED_ROWS, "uuid", "text", "text", "int", "text", "text", "text", "int", "text",
                "text", "text", "text", "text", "timestamptz", "bigint", "text", "timestamptz", "float8", "text", "bool",
                "text", "bigint");
        Rows finished = new Rows(FINISHED_ROWS, "uuid", "text", "text", "text", "timestamptz", "float8", "text",
                "bool", "text", "bigint");
        for (Object[] end : pending.finished) {
            Object[] start = unended.remove((java.util.UUID) end[0]);
            if (start != null) {
                System.arraycopy(end, 3, start, 15, 6);
                start[21] = Math.max((Long) start[21], (Long) end[9]);
            } else {
                finished.add(end[0], end);
            }
        }
        for (Object[] row : pending.started) {
            started.add(row[0], row);
        }
        List<java.util.UUID> existed = new ArrayList<>();
        started.execute(c, rs -> {
            if (rs.getBoolean(2)) {
                existed.add(rs.getObject(1, java.util.UUID.class));
            }
        });
        finished.execute(c);
        pending.started.clear();
        pending.finished.clear();
        if (!existed.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE proj_result m SET key_id = r.key_id, device_id = r.device_id
                    FROM proj_run r, proj_result old
                    WHERE r.run_id = m.run_id AND old.run_id = m.run_id AND old.metric = m.metric AND m.run_id = ANY(?)
                      AND (m.key_id IS DISTINCT FROM r.key_id OR m.device_id IS DISTINCT FROM r.device_id)
                    RETURNING old.key_id, old.metric, old.device_id""")) {
                ps.setArray(1, c.createArrayOf("uuid", existed.toArray()));
                leftRows(ps, touched);
            }
        }
    }

    static boolean allPassed(List<ValidityCheck> checks) {
        return checks == null || checks.stream().allMatch(ValidityCheck::passed);
    }

    private static Map<String, Object> failure(RunFailed f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("phase", f.phase());
        m.put("exit_code", f.exitCode());
        m.put("reason", f.reason());
        m.put("log_tail", f.logTail());
        return m;
    }

    /** A RunStarted replaces what an earlier claim or run end left, except a terminal or superseded status. */
    private static final String STARTED_UPDATE = """
            ON CONFLICT (run_id) DO UPDATE SET stream_id = excluded.stream_id, agent_id = excluded.agent_id,
                job_id = excluded.job_id, lease_epoch = excluded.lease_epoch,
                status = CASE WHEN proj_run.status IN ('claimed', 'running') OR excluded.status = 'superseded'
                              THEN excluded.status ELSE proj_run.status END,
                benchmark = excluded.benchmark, key_id = excluded.key_id, device_id = excluded.device_id,
                device_count = excluded.device_count, host_key = excluded.host_key, workload = excluded.workload,
                software = excluded.software, accelerators = excluded.accelerators, host = excluded.host,
                started_at = excluded.started_at, started_position = excluded.started_position,
                last_position = greatest(proj_run.last_position, excluded.last_position)""";

    private static final String STARTED = """
            INSERT INTO proj_run (run_id, stream_id, agent_id, job_id, lease_epoch, status, benchmark, key_id,
                                  device_id, device_count, host_key, workload, software, accelerators, host,
                                  started_at, started_position, last_position)
            VALUES (?, ?, ?, ?, ?,
                    CASE WHEN ?::uuid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM proj_job_assignment a
                                      WHERE a.job_id = ?::uuid AND a.lease_epoch = ? AND a.run_id = ?::uuid)
                         THEN 'superseded'
                         WHEN EXISTS (SELECT 1 FROM proj_job_assignment a
                                      WHERE a.job_id = ?::uuid AND a.lease_epoch > ?) THEN 'superseded'
                         ELSE 'running' END,
                    ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?)
            """ + STARTED_UPDATE;

    /**
     * Self-started runs (no job, hence never superseded at start), deferred and sent together, each with its run end
     * when that came in the same batch (finished_at is then set; the end's columns and status apply as
     * {@link #FINISHED_ROWS} would apply them after the start).
     */
    private static final String STARTED_ROWS = """
            INSERT INTO proj_run (run_id, stream_id, agent_id, job_id, lease_epoch, status, benchmark, key_id,
                                  device_id, device_count, host_key, workload, software, accelerators, host,
                                  started_at, started_position, finished_at, duration_seconds, validity, valid, failure,
                                  last_position)
            SELECT r, s, a, NULL::uuid, e, coalesce(st, 'running'), b, k, d, n, h, w::jsonb, sw::jsonb, acc::jsonb,
                   ho::jsonb, t, p, ft, du, v::jsonb, ok, f::jsonb, lp
            FROM unnest(?::uuid[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::text[], ?::int[], ?::text[],
                        ?::text[], ?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::bigint[], ?::text[],
                        ?::timestamptz[], ?::float8[], ?::text[], ?::bool[], ?::text[], ?::bigint[])
                 WITH ORDINALITY AS x(r, s, a, e, b, k, d, n, h, w, sw, acc, ho, t, p, st, ft, du, v, ok, f, lp, ord)
            ORDER BY ord
            ON CONFLICT (run_id) DO UPDATE SET stream_id = excluded.stream_id, agent_id = excluded.agent_id,
                job_id = excluded.job_id, lease_epoch = excluded.lease_epoch,
                status = CASE WHEN excluded.finished_at IS NOT NULL THEN %s
                              WHEN proj_run.status IN ('claimed', 'running') THEN excluded.status
                              ELSE proj_run.status END,
                benchmark = excluded.benchmark, key_id = excluded.key_id, device_id = excluded.device_id,
                device_count = excluded.device_count, host_key = excluded.host_key, workload = excluded.workload,
                software = excluded.software, accelerators = excluded.accelerators, host = excluded.host,
                started_at = excluded.started_at, started_position = excluded.started_position,
                finished_at = coalesce(excluded.finished_at, proj_run.finished_at),
                duration_seconds = CASE WHEN excluded.finished_at IS NULL THEN proj_run.duration_seconds
                                        ELSE excluded.duration_seconds END,
                validity = CASE WHEN excluded.finished_at IS NULL THEN proj_run.validity ELSE excluded.validity END,
                valid = CASE WHEN excluded.finished_at IS NULL THEN proj_run.valid ELSE excluded.valid END,
                failure = CASE WHEN excluded.finished_at IS NULL THEN proj_run.failure ELSE excluded.failure END,
                last_position = greatest(proj_run.last_position, excluded.last_position)
            RETURNING run_id, (xmax <> 0) AS existed""".formatted(KEEP_SUPERSEDED);

    private static String deviceId(RunStarted r) {
        List<Accelerator> acc = r.accelerators();
        return acc == null || acc.isEmpty()
                ? DeviceAliases.cpuDeviceId(r.host() == null ? null : r.host().cpuModel())
                : acc.get(0).deviceId();
    }

    private static Integer deviceCount(RunStarted r) {
        List<Accelerator> acc = r.accelerators();
        return acc == null || acc.isEmpty() ? null : acc.stream().mapToInt(Accelerator::total).sum();
    }

    /** The values of {@link #STARTED_ROWS} for a self-started run, without an end. */
    private static Object[] startedRow(Envelope env, RunStarted r, long position) {
        return new Object[] {r.runId(), env.streamId(), env.agentId(), r.leaseEpoch(), r.key().benchmark(), r.key().id(),
                deviceId(r), deviceCount(r), r.host() == null ? null : CatalogProjection.hostKey(r.host()),
                Json.of(r.workload()), Json.of(r.software()), Json.of(r.accelerators()), Json.of(r.host()),
                Sql.time(env.occurredAt()), position, null, null, null, null, null, null, position};
    }

    private static void bindStarted(PreparedStatement ps, Envelope env, RunStarted r, long position)
            throws SQLException {
        Integer deviceCount = deviceCount(r);
        int i = 1;
        Sql.setUuid(ps, i++, r.runId());
        ps.setString(i++, env.streamId());
        ps.setString(i++, env.agentId());
        Sql.setUuid(ps, i++, r.jobId());
        Sql.setInt(ps, i++, r.leaseEpoch());
        Sql.setUuid(ps, i++, r.jobId());
        Sql.setUuid(ps, i++, r.jobId());
        Sql.setInt(ps, i++, r.leaseEpoch());
        Sql.setUuid(ps, i++, r.runId());
        Sql.setUuid(ps, i++, r.jobId());
        Sql.setInt(ps, i++, r.leaseEpoch());
        ps.setString(i++, r.key().benchmark());
        ps.setString(i++, r.key().id());
        ps.setString(i++, deviceId(r));
        Sql.setInt(ps, i++, deviceCount);
        ps.setString(i++, r.host() == null ? null : CatalogProjection.hostKey(r.host()));
        ps.setString(i++, Json.of(r.workload()));
        ps.setString(i++, Json.of(r.software()));
        ps.setString(i++, Json.of(r.accelerators()));
        ps.setString(i++, Json.of(r.host()));
        Sql.setTime(ps, i++, env.occurredAt());
        ps.setLong(i++, position);
        ps.setLong(i, position);
    }

    /** A run of a job, applied at once: whether it is superseded depends on the grants stored before it. */
    private static void started(Connection c, Envelope env, RunStarted r, long position, Touched touched)
            throws SQLException {
        String deviceId = deviceId(r);
        boolean existed;
        try (PreparedStatement ps = c.prepareStatement(STARTED + " RETURNING (xmax <> 0) AS existed")) {
            bindStarted(ps, env, r, position);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                existed = rs.next() && rs.getBoolean(1);
            }
        }
        touched.run(r.runId());
        if (!existed) {
            return; // a new run row: no result can reference it yet
        }
        // Results that arrived before their RunStarted learn their key and device now.
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE proj_result m SET key_id = ?, device_id = ? FROM proj_result old
                WHERE old.run_id = m.run_id AND old.metric = m.metric AND m.run_id = ?
                  AND (m.key_id IS DISTINCT FROM ? OR m.device_id IS DISTINCT FROM ?)
                RETURNING old.key_id, old.metric, old.device_id""")) {
            ps.setString(1, r.key().id());
            ps.setString(2, deviceId);
            Sql.setUuid(ps, 3, r.runId());
            ps.setString(4, r.key().id());
            ps.setString(5, deviceId);
            leftRows(ps, touched);
        }
    }

    /** The leaderboard rows results left when their key or device changed are recomputed too. */
    private static void leftRows(PreparedStatement ps, Touched touched) throws SQLException {
        try (java.sql.ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                touched.device(rs.getString(1), rs.getString(2), rs.getString(3));
            }
        }
    }

    private static void claimed(Connection c, Envelope env, JobClaimed j, long position) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_run (run_id, stream_id, agent_id, job_id, status, last_position)
                VALUES (?, ?, ?, ?, 'claimed', ?)
                ON CONFLICT (run_id) DO UPDATE SET job_id = coalesce(proj_run.job_id, excluded.job_id),
                    last_position = greatest(proj_run.last_position, excluded.last_position)""")) {
            Sql.setUuid(ps, 1, j.runId());
            ps.setString(2, env.streamId());
            ps.setString(3, env.agentId());
            Sql.setUuid(ps, 4, j.jobId());
            ps.setLong(5, position);
            ps.executeUpdate();
        }
    }

    private static final String FINISHED_ROWS = """
            INSERT INTO proj_run (run_id, stream_id, agent_id, status, finished_at, duration_seconds, validity, valid,
                                  failure, last_position)
            SELECT r, s, a, st, t, d, v::jsonb, ok, f::jsonb, p
            FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::float8[], ?::text[], ?::bool[],
                        ?::text[], ?::bigint[])
                 WITH ORDINALITY AS x(r, s, a, st, t, d, v, ok, f, p, ord)
            ORDER BY ord
            ON CONFLICT (run_id) DO UPDATE SET status = %s, finished_at = excluded.finished_at,
                duration_seconds = excluded.duration_seconds, validity = excluded.validity, valid = excluded.valid,
                failure = excluded.failure, last_position = greatest(proj_run.last_position, excluded.last_position)
            """.formatted(KEEP_SUPERSEDED);

    private static void finished(Envelope env, java.util.UUID runId, String status, Double duration, String validity,
            Boolean valid, String failure, long position, Touched touched) {
        touched.state(Pending.class, Pending::new).finished.add(new Object[] {runId, env.streamId(), env.agentId(), status,
                Sql.time(env.occurredAt()), duration, validity, valid, failure, position});
        touched.run(runId);
    }
}
