package dev.podium.ingest.projection;

import dev.podium.events.run.RunStarted;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * {@code proj_reproduction_staleness}: whether a claim's reproduction still speaks for the software of its pools. Only a
 * granted run of a job counts, and its pool is the job's, which the command side chose: an agent can neither name
 * another pool (its key is bound to one; a run of a job it was not granted is superseded) nor make a self-started run
 * count. A reproduction's first granted run in a pool sets the basis there; a later granted run in that pool, of the
 * same benchmark and of another campaign, that reports another framework, driver or runtime version marks it stale once.
 * The run reads only the fresh rows of its pool and benchmark (an index holds just those), never other runs.
 */
@ApplicationScoped
public class StalenessProjection implements Projection {

    public static final List<String> TABLES = List.of("proj_reproduction_staleness");

    /** The run as staleness sees it: granted, of a job, with the versions its RunStarted reported. */
    private static final String RUN = """
            WITH run AS (
                SELECT r.run_id, r.benchmark, j.pool, j.campaign_id, r.started_at,
                       r.software ->> 'framework' AS framework, r.software ->> 'framework_version' AS framework_version,
                       r.accelerators -> 0 ->> 'driver' AS driver, r.accelerators -> 0 ->> 'runtime' AS runtime
                FROM proj_run r JOIN job j ON j.job_id = r.job_id
                WHERE r.run_id = ? AND r.status NOT IN ('claimed', 'superseded') AND r.benchmark IS NOT NULL)
            """;

    private static final String BASIS = RUN + """
            INSERT INTO proj_reproduction_staleness (campaign_id, pool, benchmark, framework, framework_version, driver,
                                                     runtime, basis_run_id, last_position)
            SELECT cr.campaign_id, run.pool, run.benchmark, run.framework, run.framework_version, run.driver,
                   run.runtime, run.run_id, ?
            FROM run JOIN claim_reproduction cr ON cr.campaign_id = run.campaign_id AND run.pool = ANY (cr.pools)
            ON CONFLICT (campaign_id, pool) DO NOTHING""";

    /**
     * The first version that differs, framework before driver before runtime; a version either side left out differs
     * from nothing. Rows are locked in key order, so two ingest instances cannot deadlock on them.
     */
    private static final String STALE = RUN
            + """
            , fresh AS (
                SELECT s.campaign_id, s.pool,
                       CASE WHEN %s OR (run.framework_version IS NOT NULL AND %s) THEN 'framework'
                            WHEN %s THEN 'driver'
                            WHEN %s THEN 'runtime' END AS component,
                       concat_ws(' ', s.framework, s.framework_version) AS framework_from,
                       concat_ws(' ', run.framework, run.framework_version) AS framework_to,
                       s.driver AS driver_from, run.driver AS driver_to, s.runtime AS runtime_from,
                       run.runtime AS runtime_to, run.started_at, run.run_id
                FROM proj_reproduction_staleness s JOIN run ON s.pool = run.pool AND s.benchmark = run.benchmark
                WHERE s.stale_since IS NULL AND s.campaign_id IS DISTINCT FROM run.campaign_id
                ORDER BY s.campaign_id, s.pool
                FOR UPDATE OF s)
            UPDATE proj_reproduction_staleness s
            SET stale_component = f.component,
                stale_from = CASE f.component WHEN 'framework' THEN f.framework_from
                                              WHEN 'driver' THEN f.driver_from ELSE f.runtime_from END,
                stale_to = CASE f.component WHEN 'framework' THEN f.framework_to
                                            WHEN 'driver' THEN f.driver_to ELSE f.runtime_to END,
                stale_since = f.started_at, stale_run_id = f.run_id, last_position = ?
            FROM fresh f
            WHERE s.campaign_id = f.campaign_id AND s.pool = f.pool AND f.component IS NOT NULL""".formatted(differs("framework_version"), differs("framework"), differs("driver"), differs("runtime"));

    /** Both sides name the {@code column} and name different things. */
    private static String differs(String column) {
        return "(s.%1$s IS NOT NULL AND run.%1$s IS NOT NULL AND s.%1$s <> run.%1$s)".formatted(column);
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (!(event.envelope().payload() instanceof RunStarted r) || r.jobId() == null) {
            return;
        }
        write(c, BASIS, r, event.position());
        write(c, STALE, r, event.position());
    }

    private static void write(Connection c, String sql, RunStarted r, long position) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            Sql.setUuid(ps, 1, r.runId());
            ps.setLong(2, position);
            ps.executeUpdate();
        }
    }
}
