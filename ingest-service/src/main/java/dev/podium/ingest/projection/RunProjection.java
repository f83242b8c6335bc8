package dev.podium.ingest.projection;

import dev.podium.events.Envelope;
import dev.podium.events.device.DeviceAliases;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunStarted;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code proj_run}: one row per run and its status (claimed, running, completed, failed, cancelled, superseded). A run
 * of an earlier lease epoch, or of a job that was never granted to it (a claim that lost, or an agent that did not wait
 * for its grant), is superseded and stays so whatever it reports later: only the granted run of a job counts. Any of a
 * run's events may create its row, so a later event never depends on an earlier one having arrived.
 */
@ApplicationScoped
public class RunProjection implements Projection {

    /** Statuses an event may replace; terminal ones and superseded stay. */
    private static final String KEEP_SUPERSEDED =
            "CASE WHEN proj_run.status = 'superseded' THEN 'superseded' ELSE excluded.status END";

    /**
     * A run's {@code proj_run} row as its RunStarted sets it (JSON columns as text), with the end of the run when that
     * came in the same batch ({@link #endedBy}); without one, {@code finishedAt} is null and the end's columns are not
     * written.
     */
    record RunRow(
            UUID runId,
            String streamId,
            String agentId,
            UUID jobId,
            Integer leaseEpoch,
            String status,
            String benchmark,
            String keyId,
            String deviceId,
            Integer deviceCount,
            String hostKey,
            String workload,
            String software,
            String accelerators,
            String host,
            Instant startedAt,
            long startedPosition,
            Instant finishedAt,
            Double durationSeconds,
            String validity,
            Boolean valid,
            String failure,
            long lastPosition) {

        static RunRow started(Envelope env, RunStarted r, long position) {
            return new RunRow(
                    r.runId(),
                    env.streamId(),
                    env.agentId(),
                    r.jobId(),
                    r.leaseEpoch(),
                    "running",
                    r.key().benchmark(),
                    r.key().id(),
                    RunProjection.deviceId(r),
                    RunProjection.deviceCount(r),
                    r.host() == null ? null : CatalogProjection.hostKey(r.host()),
                    Json.of(r.workload()),
                    Json.of(r.software()),
                    Json.of(r.accelerators()),
                    Json.of(r.host()),
                    env.occurredAt(),
                    position,
                    null,
                    null,
                    null,
                    null,
                    null,
                    position);
        }

        /** This row with the end's status and columns: one insert instead of an insert and an update of the same row. */
        RunRow endedBy(RunEnd end) {
            return new RunRow(
                    runId,
                    streamId,
                    agentId,
                    jobId,
                    leaseEpoch,
                    end.status(),
                    benchmark,
                    keyId,
                    deviceId,
                    deviceCount,
                    hostKey,
                    workload,
                    software,
                    accelerators,
                    host,
                    startedAt,
                    startedPosition,
                    end.finishedAt(),
                    end.durationSeconds(),
                    end.validity(),
                    end.valid(),
                    end.failure(),
                    Math.max(lastPosition, end.lastPosition()));
        }
    }

    /** What a run's end (RunCompleted, RunFailed or RunCancelled) sets of its {@code proj_run} row. */
    record RunEnd(
            UUID runId,
            String streamId,
            String agentId,
            String status,
            Instant finishedAt,
            Double durationSeconds,
            String validity,
            Boolean valid,
            String failure,
            long lastPosition) {

        static RunEnd completed(Envelope env, RunCompleted r, long position) {
            return new RunEnd(
                    r.runId(),
                    env.streamId(),
                    env.agentId(),
                    "completed",
                    env.occurredAt(),
                    r.durationSeconds(),
                    Json.of(r.validity()),
                    allPassed(r.validity()),
                    null,
                    position);
        }

        static RunEnd failed(Envelope env, RunFailed f, long position) {
            Map<String, Object> failure = new LinkedHashMap<>();
            failure.put("phase", f.phase());
            failure.put("exit_code", f.exitCode());
            failure.put("reason", f.reason());
            failure.put("log_tail", f.logTail());
            return new RunEnd(
                    f.runId(),
                    env.streamId(),
                    env.agentId(),
                    "failed",
                    env.occurredAt(),
                    null,
                    null,
                    null,
                    Json.of(failure),
                    position);
        }

        static RunEnd cancelled(Envelope env, RunCancelled x, long position) {
            return new RunEnd(
                    x.runId(),
                    env.streamId(),
                    env.agentId(),
                    "cancelled",
                    env.occurredAt(),
                    null,
                    null,
                    null,
                    Json.of(x.reason() == null ? Map.of() : Map.of("reason", x.reason())),
                    position);
        }
    }

    /** What a JobClaimed sets of its run's {@code proj_run} row. */
    private record RunClaim(UUID runId, String streamId, String agentId, UUID jobId, long lastPosition) {}

    private static final Columns<RunRow> RUN = Columns.of(RunRow.class);
    private static final Columns<RunEnd> END = Columns.of(RunEnd.class);
    private static final Columns<RunClaim> CLAIM = Columns.of(RunClaim.class);

    /** What this batch deferred: self-started runs and run ends, each list in event order. */
    private static final class Pending {
        final List<RunRow> started = new ArrayList<>();
        final List<RunEnd> finished = new ArrayList<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        Envelope env = event.envelope();
        Object p = env.payload();
        long position = event.position();
        if (p instanceof RunStarted r) {
            if (r.jobId() == null) {
                touched.state(Pending.class, Pending::new).started.add(RunRow.started(env, r, position));
                touched.run(r.runId());
            } else {
                startedForJob(c, RunRow.started(env, r, position), touched);
            }
        } else if (p instanceof JobClaimed j) {
            Rows.writeOne(
                    c, CLAIM, CLAIMED, new RunClaim(j.runId(), env.streamId(), env.agentId(), j.jobId(), position));
        } else if (p instanceof RunCompleted r) {
            finished(RunEnd.completed(env, r, position), touched);
        } else if (p instanceof RunFailed f) {
            finished(RunEnd.failed(env, f, position), touched);
        } else if (p instanceof RunCancelled x) {
            finished(RunEnd.cancelled(env, x, position), touched);
        }
    }

    private static void finished(RunEnd end, Touched touched) {
        touched.state(Pending.class, Pending::new).finished.add(end);
        touched.run(end.runId());
    }

    /**
     * Sends the deferred upserts: self-started runs, then run ends (the two commute: neither overrides what the other
     * sets, and both keep a terminal or superseded status), then gives results stored before their RunStarted the key
     * and device it named, in one statement. A run that started and ended in this batch is written once, its first end
     * merged into its first start's row. Only a RunStarted that found its run row already there (a claim, a run end or
     * an earlier RunStarted wrote it) can have results stored before it: a new row has none.
     */
    @Override
    public void drain(Connection c, Touched touched) throws SQLException {
        Pending pending = touched.state(Pending.class, Pending::new);
        Rows<RunRow> started = new Rows<>(RUN, STARTED_ROWS, RunRow::runId);
        Rows<RunEnd> finished = new Rows<>(END, FINISHED_ROWS, RunEnd::runId);
        mergeEnds(pending.started, pending.finished, finished).forEach(started::add);
        List<UUID> existed = new ArrayList<>();
        started.execute(c, rs -> {
            if (rs.getBoolean(2)) {
                existed.add(rs.getObject(1, UUID.class));
            }
        });
        finished.execute(c);
        pending.started.clear();
        pending.finished.clear();
        resultsLearnTheirRun(c, existed, touched);
    }

    /**
     * The started rows, each run's first one with its first end merged in; the ends that found no start of theirs
     * are added to {@code unmerged}, in order.
     */
    private static List<RunRow> mergeEnds(List<RunRow> started, List<RunEnd> ends, Rows<RunEnd> unmerged) {
        List<RunRow> rows = new ArrayList<>(started);
        Map<UUID, Integer> unended = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            unended.putIfAbsent(rows.get(i).runId(), i);
        }
        for (RunEnd end : ends) {
            Integer start = unended.remove(end.runId());
            if (start != null) {
                rows.set(start, rows.get(start).endedBy(end));
            } else {
                unmerged.add(end);
            }
        }
        return rows;
    }

    /** Results that arrived before their RunStarted take the key and device of their run's row now. */
    private static void resultsLearnTheirRun(Connection c, List<UUID> runs, Touched touched) throws SQLException {
        if (runs.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE proj_result m SET key_id = r.key_id, device_id = r.device_id
                FROM proj_run r, proj_result old
                WHERE r.run_id = m.run_id AND old.run_id = m.run_id AND old.metric = m.metric AND m.run_id = ANY(?)
                  AND (m.key_id IS DISTINCT FROM r.key_id OR m.device_id IS DISTINCT FROM r.device_id)
                RETURNING old.key_id, old.metric, old.device_id""")) {
            ps.setArray(1, c.createArrayOf("uuid", runs.toArray(new UUID[0])));
            // The leaderboard rows results left when their key or device changed are recomputed too.
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    touched.device(rs.getString(1), rs.getString(2), rs.getString(3));
                }
            }
        }
    }

    static boolean allPassed(List<ValidityCheck> checks) {
        return checks == null || checks.stream().allMatch(ValidityCheck::passed);
    }

    private static String deviceId(RunStarted r) {
        List<Accelerator> acc = r.accelerators();
        return acc == null || acc.isEmpty()
                ? DeviceAliases.cpuDeviceId(r.host() == null ? null : r.host().cpuModel())
                : acc.get(0).deviceId();
    }

    private static Integer deviceCount(RunStarted r) {
        List<Accelerator> acc = r.accelerators();
        return acc == null || acc.isEmpty()
                ? null
                : acc.stream().mapToInt(Accelerator::total).sum();
    }

    /** A run of a job, applied at once: whether it is superseded depends on the grants stored before it. */
    private static void startedForJob(Connection c, RunRow row, Touched touched) throws SQLException {
        Rows<RunRow> started = new Rows<>(RUN, STARTED_FOR_JOB, RunRow::runId);
        started.add(row);
        List<UUID> existed = new ArrayList<>();
        started.execute(c, rs -> {
            if (rs.getBoolean(1)) {
                existed.add(row.runId());
            }
        });
        touched.run(row.runId());
        resultsLearnTheirRun(c, existed, touched);
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

    /**
     * A run of a job is superseded unless it holds the grant of its lease epoch and no later epoch was granted; its
     * row has no end yet.
     */
    private static final String STARTED_FOR_JOB = """
            INSERT INTO proj_run (run_id, stream_id, agent_id, job_id, lease_epoch, status, benchmark, key_id,
                                  device_id, device_count, host_key, workload, software, accelerators, host,
                                  started_at, started_position, last_position)
            SELECT x.run_id, x.stream_id, x.agent_id, x.job_id, x.lease_epoch,
                   CASE WHEN x.job_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM proj_job_assignment a
                                 WHERE a.job_id = x.job_id AND a.lease_epoch = x.lease_epoch AND a.run_id = x.run_id)
                        THEN 'superseded'
                        WHEN EXISTS (SELECT 1 FROM proj_job_assignment a
                                     WHERE a.job_id = x.job_id AND a.lease_epoch > x.lease_epoch) THEN 'superseded'
                        ELSE 'running' END,
                   x.benchmark, x.key_id, x.device_id, x.device_count, x.host_key, x.workload::jsonb,
                   x.software::jsonb, x.accelerators::jsonb, x.host::jsonb, x.started_at, x.started_position,
                   x.last_position
            FROM %s
            %s
            RETURNING (xmax <> 0) AS existed""".formatted(RUN.unnest("x"), STARTED_UPDATE);

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
            SELECT run_id, stream_id, agent_id, job_id, lease_epoch, status, benchmark, key_id, device_id, device_count,
                   host_key, workload::jsonb, software::jsonb, accelerators::jsonb, host::jsonb, started_at,
                   started_position, finished_at, duration_seconds, validity::jsonb, valid, failure::jsonb, last_position
            FROM %s
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
            RETURNING run_id, (xmax <> 0) AS existed""".formatted(RUN.unnestWithOrdinality("x"), KEEP_SUPERSEDED);

    private static final String FINISHED_ROWS = """
            INSERT INTO proj_run (run_id, stream_id, agent_id, status, finished_at, duration_seconds, validity, valid,
                                  failure, last_position)
            SELECT run_id, stream_id, agent_id, status, finished_at, duration_seconds, validity::jsonb, valid,
                   failure::jsonb, last_position
            FROM %s
            ORDER BY ord
            ON CONFLICT (run_id) DO UPDATE SET status = %s, finished_at = excluded.finished_at,
                duration_seconds = excluded.duration_seconds, validity = excluded.validity, valid = excluded.valid,
                failure = excluded.failure, last_position = greatest(proj_run.last_position, excluded.last_position)
            """.formatted(END.unnestWithOrdinality("x"), KEEP_SUPERSEDED);

    private static final String CLAIMED = """
            INSERT INTO proj_run (run_id, stream_id, agent_id, job_id, status, last_position)
            SELECT run_id, stream_id, agent_id, job_id, 'claimed', last_position FROM %s
            ON CONFLICT (run_id) DO UPDATE SET job_id = coalesce(proj_run.job_id, excluded.job_id),
                last_position = greatest(proj_run.last_position, excluded.last_position)""".formatted(CLAIM.unnest("x"));
}
