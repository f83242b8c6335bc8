-- What each completed, not retracted run adds to its cells, kept per (key, metric, device, run), so that a batch
-- recomputes a touched cell from one index range instead of from its results: V10's function looked every result of a
-- touched cell up with its run, three times (once per table), and a cell's results and runs lie on as many heap pages
-- as it has results (at 1,000,000 results, 43 a cell, in a 260 MB proj_result and a 2 GB proj_run). The primary key
-- carries every column the three tables are summed from, so a cell's rows are read by an index-only scan of one or two
-- leaf pages. A run's rows are rewritten whenever a batch touches the run, from its results and its run row; the
-- per-repetition logarithms are taken once, there. Sums stay NUMERIC over each double's shortest exact text (V10),
-- with extra_float_digits fixed in the functions that print them, whatever the session's setting.
CREATE TABLE proj_cell_run (
    key_id                 TEXT    NOT NULL,
    metric                 TEXT    NOT NULL,
    device_id              TEXT    NOT NULL,
    run_id                 UUID    NOT NULL,
    benchmark              TEXT,
    unit                   TEXT    NOT NULL,
    direction              TEXT    NOT NULL,
    scope                  TEXT    NOT NULL,
    valid                  BOOLEAN NOT NULL,
    framework_version      TEXT,
    started_at             TIMESTAMPTZ,
    n                      INT,
    mean                   DOUBLE PRECISION,
    mean_exact             NUMERIC,
    ci95_low               DOUBLE PRECISION,
    ci95_high              DOUBLE PRECISION,
    cv                     DOUBLE PRECISION,
    values_n               INT     NOT NULL,
    values_log_sum         NUMERIC NOT NULL,
    values_log_sum_squares NUMERIC NOT NULL,
    mean_log               NUMERIC,
    CONSTRAINT proj_cell_run_pkey PRIMARY KEY (key_id, metric, device_id, run_id)
        INCLUDE (benchmark, unit, direction, scope, valid, framework_version, started_at, n, mean, mean_exact, ci95_low,
                 ci95_high, cv, values_n, values_log_sum, values_log_sum_squares, mean_log)
);
CREATE INDEX proj_cell_run_run_idx ON proj_cell_run (run_id);

-- Rewrites the rows of the given runs from their results and run rows; returns the cells of the rows removed and
-- written, which the batch then recomputes.
CREATE FUNCTION podium_refresh_cell_runs(run_ids UUID[]) RETURNS TABLE (key_id TEXT, metric TEXT, device_id TEXT)
LANGUAGE sql SET extra_float_digits = 1 AS $$
WITH removed AS (
    DELETE FROM proj_cell_run x WHERE x.run_id = ANY(run_ids) RETURNING x.key_id, x.metric, x.device_id
),
written AS (
    INSERT INTO proj_cell_run (key_id, metric, device_id, run_id, benchmark, unit, direction, scope, valid,
                               framework_version, started_at, n, mean, mean_exact, ci95_low, ci95_high, cv, values_n,
                               values_log_sum, values_log_sum_squares, mean_log)
    SELECT m.key_id, m.metric, m.device_id, m.run_id, r.benchmark, m.unit, m.direction, m.scope, coalesce(r.valid, false),
           r.software->>'framework_version', r.started_at, m.n, m.mean, m.mean::text::numeric, m.ci95_low, m.ci95_high, m.cv,
           raw.n, raw.log_sum, raw.log_sum_squares,
           CASE WHEN run.mean > 0 AND run.mean < 'Infinity'::float8 THEN ln(run.mean)::text::numeric END
    FROM proj_result m
    JOIN proj_run r ON r.run_id = m.run_id
    CROSS JOIN LATERAL (SELECT coalesce((SELECT avg(v) FROM unnest(m.raw_values) v), m.mean) AS mean) AS run
    CROSS JOIN LATERAL (SELECT count(v)::int AS n, coalesce(sum(ln(v)::text::numeric), 0) AS log_sum,
                               coalesce(sum(ln(v)::text::numeric * ln(v)::text::numeric), 0) AS log_sum_squares
                        FROM unnest(m.raw_values) v WHERE v > 0 AND v < 'Infinity'::float8) AS raw
    WHERE m.run_id = ANY(run_ids) AND m.key_id IS NOT NULL AND m.device_id IS NOT NULL
      AND r.status = 'completed' AND NOT r.retracted
    RETURNING proj_cell_run.key_id, proj_cell_run.metric, proj_cell_run.device_id
)
SELECT * FROM removed UNION SELECT * FROM written;
$$;

-- Recomputes the three tables of V10 for the cells given as three parallel arrays, from their proj_cell_run rows.
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
                                      means_n, means_log_sum, means_log_sum_squares, failing_runs, scope)
    SELECT e.key_id, e.metric, e.device_id,
           count(*) FILTER (WHERE e.valid),
           coalesce(sum(e.values_n) FILTER (WHERE e.valid), 0),
           coalesce(sum(e.values_log_sum) FILTER (WHERE e.valid), 0),
           coalesce(sum(e.values_log_sum_squares) FILTER (WHERE e.valid), 0),
           count(e.mean_log) FILTER (WHERE e.valid),
           coalesce(sum(e.mean_log) FILTER (WHERE e.valid), 0),
           coalesce(sum(e.mean_log * e.mean_log) FILTER (WHERE e.valid), 0),
           count(*) FILTER (WHERE NOT e.valid),
           min(e.scope)
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
                                           ci95_high, best, cv, last_run_at, failing)
SELECT e.key_id, e.metric, e.device_id, (array_agg(e.benchmark ORDER BY e.run_id))[1],
       (array_agg(e.unit ORDER BY e.run_id))[1], (array_agg(e.direction ORDER BY e.run_id))[1], count(*),
       coalesce(sum(e.n), 0), avg(e.mean_exact)::float8,
       CASE WHEN count(*) = 1 THEN min(e.ci95_low) END, CASE WHEN count(*) = 1 THEN min(e.ci95_high) END, max(e.mean),
       CASE WHEN count(*) = 1 THEN min(e.cv) END, max(e.started_at), count(*) FILTER (WHERE NOT e.valid)
FROM e
WHERE e.benchmark IS NOT NULL
GROUP BY e.key_id, e.metric, e.device_id;
$$;

-- Every cell of a completed run: after a rebuild (and for fixtures that write results directly).
CREATE OR REPLACE FUNCTION podium_refresh_all_page_cells() RETURNS VOID
LANGUAGE sql AS $$
SELECT podium_refresh_page_cells(coalesce(array_agg(key_id), '{}'), coalesce(array_agg(metric), '{}'),
                                 coalesce(array_agg(device_id), '{}'))
FROM (SELECT DISTINCT * FROM podium_refresh_cell_runs(
          (SELECT coalesce(array_agg(run_id), '{}') FROM proj_run WHERE status = 'completed' AND NOT retracted))) AS c;
$$;

-- The rows of the runs already stored.
SELECT podium_refresh_all_page_cells();
