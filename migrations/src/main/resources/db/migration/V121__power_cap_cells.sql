-- A run whose enforced power limit was below its default fails not_throttled (V118), and wherever it is compared the page
-- says so with the limit beside the default: per run, the lowest such limit among its devices and that device's default
-- (proj_cell_run), and per comparison cell, how many of its runs ran capped and the lowest limit with its default
-- (proj_comparison_cell, which the comparison and the leaderboard read). V90's functions, with these columns.

-- The lowest enforced limit below its default among a run's devices (from its RunStarted, V118), and that default; no
-- row when none ran capped. One run's head row, so a batch's cost stays what it brings.
CREATE FUNCTION podium_run_power_cap(run UUID)
RETURNS TABLE (power_limit_w DOUBLE PRECISION, default_power_limit_w DOUBLE PRECISION)
LANGUAGE sql STABLE AS $$
SELECT d.power_limit_w, d.default_power_limit_w
FROM proj_run_throttle_head h
CROSS JOIN LATERAL (
    SELECT (x->>'power_limit_watts')::float8 AS power_limit_w,
           (x->>'default_power_limit_watts')::float8 AS default_power_limit_w
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(h.devices) = 'array' THEN h.devices ELSE '[]'::jsonb END) x
    WHERE jsonb_typeof(x->'power_limit_watts') = 'number'
      AND jsonb_typeof(x->'default_power_limit_watts') = 'number') d
WHERE h.run_id = run AND d.power_limit_w < d.default_power_limit_w
ORDER BY d.power_limit_w, d.default_power_limit_w DESC
LIMIT 1;
$$;

-- The cell's rows stay readable by an index-only scan: the new columns join the primary key's INCLUDE.
ALTER TABLE proj_cell_run ADD COLUMN power_limit_w DOUBLE PRECISION, ADD COLUMN default_power_limit_w DOUBLE PRECISION;
ALTER TABLE proj_cell_run DROP CONSTRAINT proj_cell_run_pkey,
    ADD CONSTRAINT proj_cell_run_pkey PRIMARY KEY (key_id, metric, device_id, run_id)
        INCLUDE (benchmark, unit, direction, scope, valid, framework_version, started_at, n, mean, mean_exact, ci95_low,
                 ci95_high, cv, values_n, values_log_sum, values_log_sum_squares, mean_log, power_limit_w,
                 default_power_limit_w);

ALTER TABLE proj_comparison_cell ADD COLUMN capped_runs INT NOT NULL DEFAULT 0,
    ADD COLUMN capped_limit_w DOUBLE PRECISION, ADD COLUMN capped_default_w DOUBLE PRECISION;

UPDATE proj_cell_run c SET power_limit_w = cap.power_limit_w, default_power_limit_w = cap.default_power_limit_w
FROM (SELECT h.run_id, p.* FROM proj_run_throttle_head h CROSS JOIN LATERAL podium_run_power_cap(h.run_id) p) AS cap
WHERE cap.run_id = c.run_id;

UPDATE proj_comparison_cell x SET capped_runs = s.capped_runs, capped_limit_w = s.capped_limit_w,
    capped_default_w = s.capped_default_w
FROM (SELECT key_id, metric, device_id, count(power_limit_w) AS capped_runs, min(power_limit_w) AS capped_limit_w,
             (array_agg(default_power_limit_w ORDER BY power_limit_w, default_power_limit_w DESC)
                 FILTER (WHERE power_limit_w IS NOT NULL))[1] AS capped_default_w
      FROM proj_cell_run WHERE power_limit_w IS NOT NULL GROUP BY key_id, metric, device_id) AS s
WHERE x.key_id = s.key_id AND x.metric = s.metric AND x.device_id = s.device_id;

-- As V90's, with each run's power cap.
CREATE OR REPLACE FUNCTION podium_refresh_cell_runs(run_ids UUID[])
RETURNS TABLE (key_id TEXT, metric TEXT, device_id TEXT, removed BOOLEAN)
LANGUAGE sql SET extra_float_digits = 1 AS $$
WITH removed AS (
    DELETE FROM proj_cell_run x WHERE x.run_id = ANY(run_ids) RETURNING x.key_id, x.metric, x.device_id
),
written AS (
    INSERT INTO proj_cell_run (key_id, metric, device_id, run_id, benchmark, unit, direction, scope, valid,
                               framework_version, started_at, n, mean, mean_exact, ci95_low, ci95_high, cv, values_n,
                               values_log_sum, values_log_sum_squares, mean_log, power_limit_w, default_power_limit_w)
    SELECT m.key_id, m.metric, m.device_id, m.run_id, r.benchmark, m.unit, m.direction, m.scope, coalesce(r.valid, false),
           r.software->>'framework_version', r.started_at, m.n, m.mean, m.mean::text::numeric, m.ci95_low, m.ci95_high, m.cv,
           raw.n, raw.log_sum, raw.log_sum_squares,
           CASE WHEN run.mean > 0 AND run.mean < 'Infinity'::float8 THEN ln(run.mean)::text::numeric END,
           cap.power_limit_w, cap.default_power_limit_w
    FROM proj_result m
    JOIN proj_run r ON r.run_id = m.run_id
    LEFT JOIN LATERAL podium_run_power_cap(m.run_id) AS cap ON true
    CROSS JOIN LATERAL (SELECT coalesce((SELECT avg(v) FROM unnest(m.raw_values) v), m.mean) AS mean) AS run
    CROSS JOIN LATERAL (SELECT count(v)::int AS n, coalesce(sum(ln(v)::text::numeric), 0) AS log_sum,
                               coalesce(sum(ln(v)::text::numeric * ln(v)::text::numeric), 0) AS log_sum_squares
                        FROM unnest(m.raw_values) v WHERE v > 0 AND v < 'Infinity'::float8) AS raw
    WHERE m.run_id = ANY(run_ids) AND m.key_id IS NOT NULL AND m.device_id IS NOT NULL
      AND r.status = 'completed' AND NOT r.retracted
    RETURNING proj_cell_run.key_id, proj_cell_run.metric, proj_cell_run.device_id
)
SELECT key_id, metric, device_id, true FROM removed UNION SELECT key_id, metric, device_id, false FROM written;
$$;

-- As V90's, with the comparison cell's capped runs.
CREATE OR REPLACE FUNCTION podium_refresh_page_cells(key_ids TEXT[], metrics TEXT[], device_ids TEXT[]) RETURNS VOID
LANGUAGE sql AS $$
DELETE FROM proj_comparison_cell x USING unnest(key_ids, metrics, device_ids) AS t(key_id, metric, device_id)
WHERE x.key_id = t.key_id AND x.metric = t.metric AND x.device_id = t.device_id;

DELETE FROM proj_leaderboard_version_row x USING unnest(key_ids, metrics, device_ids) AS t(key_id, metric, device_id)
WHERE x.key_id = t.key_id AND x.metric = t.metric AND x.device_id = t.device_id;

DELETE FROM proj_leaderboard_all_runs_row x USING unnest(key_ids, metrics, device_ids) AS t(key_id, metric, device_id)
WHERE x.key_id = t.key_id AND x.metric = t.metric AND x.device_id = t.device_id;

WITH e AS MATERIALIZED (
    SELECT x.*
    FROM (SELECT DISTINCT * FROM unnest(key_ids, metrics, device_ids)) AS t(key_id, metric, device_id)
    CROSS JOIN LATERAL (
        SELECT * FROM proj_cell_run c
        WHERE c.key_id = t.key_id AND c.metric = t.metric AND c.device_id = t.device_id
        OFFSET 0) AS x
),
comparison AS (
    INSERT INTO proj_comparison_cell (key_id, metric, device_id, runs, values_n, values_log_sum, values_log_sum_squares,
                                      means_n, means_log_sum, means_log_sum_squares, failing_runs, scope,
                                      capped_runs, capped_limit_w, capped_default_w)
    SELECT e.key_id, e.metric, e.device_id,
           count(*) FILTER (WHERE e.valid),
           coalesce(sum(e.values_n) FILTER (WHERE e.valid), 0),
           coalesce(sum(e.values_log_sum) FILTER (WHERE e.valid), 0),
           coalesce(sum(e.values_log_sum_squares) FILTER (WHERE e.valid), 0),
           count(e.mean_log) FILTER (WHERE e.valid),
           coalesce(sum(e.mean_log) FILTER (WHERE e.valid), 0),
           coalesce(sum(e.mean_log * e.mean_log) FILTER (WHERE e.valid), 0),
           count(*) FILTER (WHERE NOT e.valid),
           min(e.scope),
           count(e.power_limit_w),
           min(e.power_limit_w),
           (array_agg(e.default_power_limit_w ORDER BY e.power_limit_w, e.default_power_limit_w DESC)
               FILTER (WHERE e.power_limit_w IS NOT NULL))[1]
    FROM e
    GROUP BY e.key_id, e.metric, e.device_id
),
versions AS (
    INSERT INTO proj_leaderboard_version_row (key_id, metric, device_id, framework_version, unit, direction, runs, n,
                                              mean_sum, mean_sum_squares, mean_min, mean_max)
    SELECT e.key_id, e.metric, e.device_id, e.framework_version,
           (array_agg(e.unit ORDER BY e.run_id))[1], (array_agg(e.direction ORDER BY e.run_id))[1],
           count(*), sum(coalesce(e.n, 0)), sum(e.mean_exact), sum(e.mean_exact * e.mean_exact), min(e.mean), max(e.mean)
    FROM e
    WHERE e.mean IS NOT NULL AND e.valid AND e.benchmark IS NOT NULL AND e.framework_version IS NOT NULL
    GROUP BY e.key_id, e.metric, e.device_id, e.framework_version
)
INSERT INTO proj_leaderboard_all_runs_row (key_id, metric, device_id, benchmark, unit, direction, runs, n, mean, ci95_low,
                                           ci95_high, best, cv, last_run_at, failing, mean_sum, mean_n)
SELECT e.key_id, e.metric, e.device_id, (array_agg(e.benchmark ORDER BY e.run_id))[1],
       (array_agg(e.unit ORDER BY e.run_id))[1], (array_agg(e.direction ORDER BY e.run_id))[1], count(*),
       coalesce(sum(e.n), 0), avg(e.mean_exact)::float8,
       CASE WHEN count(*) = 1 THEN min(e.ci95_low) END, CASE WHEN count(*) = 1 THEN min(e.ci95_high) END, max(e.mean),
       CASE WHEN count(*) = 1 THEN min(e.cv) END, max(e.started_at), count(*) FILTER (WHERE NOT e.valid),
       coalesce(sum(e.mean_exact), 0), count(e.mean_exact)
FROM e
WHERE e.benchmark IS NOT NULL
GROUP BY e.key_id, e.metric, e.device_id;
$$;

-- As V90's, extending the capped runs too: the lowest limit is the least of both, with its default.
CREATE OR REPLACE FUNCTION podium_extend_page_cells(key_ids TEXT[], metrics TEXT[], device_ids TEXT[], run_ids UUID[])
RETURNS TABLE (key_id TEXT, metric TEXT, device_id TEXT)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    ext_keys TEXT[];
    ext_metrics TEXT[];
    ext_devices TEXT[];
BEGIN
    PERFORM 1 FROM proj_comparison_cell x JOIN unnest(key_ids, metrics, device_ids) AS t(k, m, d)
        ON x.key_id = t.k AND x.metric = t.m AND x.device_id = t.d
    ORDER BY x.key_id, x.metric, x.device_id FOR UPDATE OF x;
    PERFORM 1 FROM proj_leaderboard_all_runs_row x JOIN unnest(key_ids, metrics, device_ids) AS t(k, m, d)
        ON x.key_id = t.k AND x.metric = t.m AND x.device_id = t.d
    ORDER BY x.key_id, x.metric, x.device_id FOR UPDATE OF x;
    PERFORM 1 FROM proj_leaderboard_version_row x JOIN unnest(key_ids, metrics, device_ids) AS t(k, m, d)
        ON x.key_id = t.k AND x.metric = t.m AND x.device_id = t.d
    ORDER BY x.key_id, x.metric, x.framework_version, x.device_id FOR UPDATE OF x;

    WITH n AS MATERIALIZED (SELECT * FROM proj_cell_run WHERE run_id = ANY(run_ids) OFFSET 0)
    SELECT array_agg(t.k), array_agg(t.m), array_agg(t.d) INTO ext_keys, ext_metrics, ext_devices
    FROM unnest(key_ids, metrics, device_ids) AS t(k, m, d)
    JOIN proj_comparison_cell x ON x.key_id = t.k AND x.metric = t.m AND x.device_id = t.d
    JOIN proj_leaderboard_all_runs_row a ON a.key_id = t.k AND a.metric = t.m AND a.device_id = t.d
    WHERE a.mean_sum IS NOT NULL
      AND NOT EXISTS (
          SELECT 1 FROM n
          WHERE n.key_id = t.k AND n.metric = t.m AND n.device_id = t.d
            AND (n.benchmark IS DISTINCT FROM a.benchmark OR n.unit <> a.unit OR n.direction <> a.direction))
      AND NOT EXISTS (
          SELECT 1 FROM n
          JOIN proj_leaderboard_version_row v ON v.key_id = n.key_id AND v.metric = n.metric
                                             AND v.device_id = n.device_id AND v.framework_version = n.framework_version
          WHERE n.key_id = t.k AND n.metric = t.m AND n.device_id = t.d
            AND (n.unit <> v.unit OR n.direction <> v.direction));

    WITH n AS MATERIALIZED (
        SELECT c.* FROM (SELECT * FROM proj_cell_run WHERE run_id = ANY(run_ids) OFFSET 0) AS c
        JOIN unnest(ext_keys, ext_metrics, ext_devices) AS t(k, m, d)
          ON c.key_id = t.k AND c.metric = t.m AND c.device_id = t.d
    ),
    comparison AS (
        UPDATE proj_comparison_cell x
        SET runs = x.runs + s.runs, values_n = x.values_n + s.values_n,
            values_log_sum = x.values_log_sum + s.values_log_sum,
            values_log_sum_squares = x.values_log_sum_squares + s.values_log_sum_squares,
            means_n = x.means_n + s.means_n, means_log_sum = x.means_log_sum + s.means_log_sum,
            means_log_sum_squares = x.means_log_sum_squares + s.means_log_sum_squares,
            failing_runs = x.failing_runs + s.failing_runs, scope = least(x.scope, s.scope),
            capped_runs = x.capped_runs + s.capped_runs, capped_limit_w = least(x.capped_limit_w, s.capped_limit_w),
            capped_default_w = CASE
                WHEN x.capped_limit_w IS NULL OR s.capped_limit_w < x.capped_limit_w THEN s.capped_default_w
                WHEN s.capped_limit_w = x.capped_limit_w THEN greatest(x.capped_default_w, s.capped_default_w)
                ELSE x.capped_default_w END
        FROM (SELECT n.key_id, n.metric, n.device_id,
                     count(*) FILTER (WHERE n.valid) AS runs,
                     coalesce(sum(n.values_n) FILTER (WHERE n.valid), 0) AS values_n,
                     coalesce(sum(n.values_log_sum) FILTER (WHERE n.valid), 0) AS values_log_sum,
                     coalesce(sum(n.values_log_sum_squares) FILTER (WHERE n.valid), 0) AS values_log_sum_squares,
                     count(n.mean_log) FILTER (WHERE n.valid) AS means_n,
                     coalesce(sum(n.mean_log) FILTER (WHERE n.valid), 0) AS means_log_sum,
                     coalesce(sum(n.mean_log * n.mean_log) FILTER (WHERE n.valid), 0) AS means_log_sum_squares,
                     count(*) FILTER (WHERE NOT n.valid) AS failing_runs,
                     min(n.scope) AS scope,
                     count(n.power_limit_w) AS capped_runs,
                     min(n.power_limit_w) AS capped_limit_w,
                     (array_agg(n.default_power_limit_w ORDER BY n.power_limit_w, n.default_power_limit_w DESC)
                         FILTER (WHERE n.power_limit_w IS NOT NULL))[1] AS capped_default_w
              FROM n GROUP BY n.key_id, n.metric, n.device_id) AS s
        WHERE x.key_id = s.key_id AND x.metric = s.metric AND x.device_id = s.device_id
    ),
    versions AS (
        INSERT INTO proj_leaderboard_version_row AS x (key_id, metric, device_id, framework_version, unit, direction,
                                                       runs, n, mean_sum, mean_sum_squares, mean_min, mean_max)
        SELECT n.key_id, n.metric, n.device_id, n.framework_version,
               (array_agg(n.unit ORDER BY n.run_id))[1], (array_agg(n.direction ORDER BY n.run_id))[1],
               count(*), sum(coalesce(n.n, 0)), sum(n.mean_exact), sum(n.mean_exact * n.mean_exact), min(n.mean),
               max(n.mean)
        FROM n
        WHERE n.mean IS NOT NULL AND n.valid AND n.benchmark IS NOT NULL AND n.framework_version IS NOT NULL
        GROUP BY n.key_id, n.metric, n.device_id, n.framework_version
        ON CONFLICT (key_id, metric, framework_version, device_id) DO UPDATE
        SET runs = x.runs + excluded.runs, n = x.n + excluded.n, mean_sum = x.mean_sum + excluded.mean_sum,
            mean_sum_squares = x.mean_sum_squares + excluded.mean_sum_squares,
            mean_min = least(x.mean_min, excluded.mean_min), mean_max = greatest(x.mean_max, excluded.mean_max)
    )
    UPDATE proj_leaderboard_all_runs_row x
    SET runs = x.runs + s.runs, n = x.n + s.n, mean_sum = x.mean_sum + s.mean_sum, mean_n = x.mean_n + s.mean_n,
        mean = CASE WHEN x.mean_n + s.mean_n > 0 THEN ((x.mean_sum + s.mean_sum) / (x.mean_n + s.mean_n))::float8 END,
        ci95_low = NULL, ci95_high = NULL, cv = NULL, best = greatest(x.best, s.best),
        last_run_at = greatest(x.last_run_at, s.last_run_at), failing = x.failing + s.failing
    FROM (SELECT n.key_id, n.metric, n.device_id, count(*) AS runs, coalesce(sum(n.n), 0) AS n,
                 coalesce(sum(n.mean_exact), 0) AS mean_sum, count(n.mean_exact) AS mean_n, max(n.mean) AS best,
                 max(n.started_at) AS last_run_at, count(*) FILTER (WHERE NOT n.valid) AS failing
          FROM n GROUP BY n.key_id, n.metric, n.device_id) AS s
    WHERE x.key_id = s.key_id AND x.metric = s.metric AND x.device_id = s.device_id;

    RETURN QUERY
    SELECT t.k, t.m, t.d FROM unnest(key_ids, metrics, device_ids) AS t(k, m, d)
    EXCEPT
    SELECT e.k, e.m, e.d FROM unnest(ext_keys, ext_metrics, ext_devices) AS e(k, m, d);
END;
$$;
