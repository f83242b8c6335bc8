-- Read models shaped like the comparison and the leaderboard's software filter, so that neither page aggregates results
-- per request. Per (comparison key, metric, device) cell, recomputed from the cell's results by ingest for the cells a
-- batch touched (podium_refresh_page_cells) and for all after a rebuild (podium_refresh_all_page_cells): TRUNCATE and
-- replay gives the same rows. Sums are NUMERIC over each double's shortest exact text (what the JDBC driver's sessions
-- print, extra_float_digits > 0): exact sums do not depend on the order rows are read in. Only measured results count; "counted" runs are completed, valid, not retracted (a superseded run
-- has another status).

-- What a ratio's Welch interval on logs needs of one side, for both samples a comparison may use (the usable, positive
-- and finite, per-repetition values of the counted runs, and the counted runs' means, used from three runs on), and how
-- many completed, not retracted runs failed a validity check; the results' scope (SYSTEM or PER_ACCELERATOR) for cost.
CREATE TABLE proj_comparison_cell (
    key_id                 TEXT    NOT NULL,
    metric                 TEXT    NOT NULL,
    device_id              TEXT    NOT NULL,
    runs                   INT     NOT NULL,
    values_n               INT     NOT NULL,
    values_log_sum         NUMERIC NOT NULL,
    values_log_sum_squares NUMERIC NOT NULL,
    means_n                INT     NOT NULL,
    means_log_sum          NUMERIC NOT NULL,
    means_log_sum_squares  NUMERIC NOT NULL,
    failing_runs           INT     NOT NULL,
    scope                  TEXT    NOT NULL,
    PRIMARY KEY (key_id, metric, device_id)
);

-- The leaderboard's measured rows restricted to the counted runs of one framework version (the software filter), as the
-- sums proj_leaderboard_row keeps (V6): one value per run, its mean; figures follow from them (RunMeans).
CREATE TABLE proj_leaderboard_version_row (
    key_id            TEXT             NOT NULL,
    metric            TEXT             NOT NULL,
    device_id         TEXT             NOT NULL,
    framework_version TEXT             NOT NULL,
    unit              TEXT             NOT NULL,
    direction         TEXT             NOT NULL,
    runs              INT              NOT NULL,
    n                 INT              NOT NULL,
    mean_sum          NUMERIC          NOT NULL,
    mean_sum_squares  NUMERIC          NOT NULL,
    mean_min          DOUBLE PRECISION NOT NULL,
    mean_max          DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (key_id, metric, framework_version, device_id)
);
CREATE INDEX proj_leaderboard_version_row_cell_idx ON proj_leaderboard_version_row (key_id, metric, device_id);

-- The measured rows over every completed, not retracted run, those that failed a validity check too (the leaderboard
-- with failing runs included, and the local page, which shows a user's own runs even when a check failed, marked): the
-- mean of the run means, the largest as best, a single run's own interval and cv, and how many runs failed a check.
CREATE TABLE proj_leaderboard_all_runs_row (
    key_id      TEXT NOT NULL,
    metric      TEXT NOT NULL,
    device_id   TEXT NOT NULL,
    benchmark   TEXT NOT NULL,
    unit        TEXT NOT NULL,
    direction   TEXT NOT NULL,
    runs        INT  NOT NULL,
    n           INT  NOT NULL,
    mean        DOUBLE PRECISION,
    ci95_low    DOUBLE PRECISION,
    ci95_high   DOUBLE PRECISION,
    best        DOUBLE PRECISION,
    cv          DOUBLE PRECISION,
    last_run_at TIMESTAMPTZ,
    failing     INT  NOT NULL,
    PRIMARY KEY (key_id, metric, device_id)
);

-- Recomputes the three tables for the cells given as three parallel arrays. Each cell's results are read through LATERAL ...
-- OFFSET 0, one index lookup per cell on proj_result (key_id, metric, device_id).
CREATE FUNCTION podium_refresh_page_cells(key_ids TEXT[], metrics TEXT[], device_ids TEXT[]) RETURNS VOID
LANGUAGE sql AS $$
DELETE FROM proj_comparison_cell x USING unnest(key_ids, metrics, device_ids) AS t(key_id, metric, device_id)
WHERE x.key_id = t.key_id AND x.metric = t.metric AND x.device_id = t.device_id;

DELETE FROM proj_leaderboard_version_row x USING unnest(key_ids, metrics, device_ids) AS t(key_id, metric, device_id)
WHERE x.key_id = t.key_id AND x.metric = t.metric AND x.device_id = t.device_id;

DELETE FROM proj_leaderboard_all_runs_row x USING unnest(key_ids, metrics, device_ids) AS t(key_id, metric, device_id)
WHERE x.key_id = t.key_id AND x.metric = t.metric AND x.device_id = t.device_id;

INSERT INTO proj_comparison_cell (key_id, metric, device_id, runs, values_n, values_log_sum, values_log_sum_squares,
                                  means_n, means_log_sum, means_log_sum_squares, failing_runs, scope)
SELECT t.key_id, t.metric, t.device_id,
       count(*) FILTER (WHERE e.counted),
       coalesce(sum(e.values_n) FILTER (WHERE e.counted), 0),
       coalesce(sum(e.log_sum) FILTER (WHERE e.counted), 0),
       coalesce(sum(e.log_sum_squares) FILTER (WHERE e.counted), 0),
       count(e.mean_log) FILTER (WHERE e.counted),
       coalesce(sum(e.mean_log) FILTER (WHERE e.counted), 0),
       coalesce(sum(e.mean_log * e.mean_log) FILTER (WHERE e.counted), 0),
       count(*) FILTER (WHERE NOT e.counted),
       min(e.scope)
FROM (SELECT DISTINCT * FROM unnest(key_ids, metrics, device_ids)) AS t(key_id, metric, device_id)
CROSS JOIN LATERAL (
    SELECT coalesce(r.valid, false) AS counted, m.scope, raw.n AS values_n, raw.log_sum, raw.log_sum_squares,
           CASE WHEN run.mean > 0 AND run.mean < 'Infinity'::float8 THEN ln(run.mean)::text::numeric END AS mean_log
    FROM proj_result m
    JOIN proj_run r ON r.run_id = m.run_id
    CROSS JOIN LATERAL (SELECT coalesce((SELECT avg(v) FROM unnest(m.raw_values) v), m.mean) AS mean) AS run
    CROSS JOIN LATERAL (SELECT count(v)::int AS n, coalesce(sum(ln(v)::text::numeric), 0) AS log_sum,
                               coalesce(sum(ln(v)::text::numeric * ln(v)::text::numeric), 0) AS log_sum_squares
                        FROM unnest(m.raw_values) v WHERE v > 0 AND v < 'Infinity'::float8) AS raw
    WHERE m.key_id = t.key_id AND m.metric = t.metric AND m.device_id = t.device_id
      AND r.status = 'completed' AND NOT r.retracted
    OFFSET 0) AS e
GROUP BY t.key_id, t.metric, t.device_id;

INSERT INTO proj_leaderboard_version_row (key_id, metric, device_id, framework_version, unit, direction, runs, n,
                                          mean_sum, mean_sum_squares, mean_min, mean_max)
SELECT t.key_id, t.metric, t.device_id, e.framework_version,
       (array_agg(e.unit ORDER BY e.run_id))[1], (array_agg(e.direction ORDER BY e.run_id))[1],
       count(*), sum(coalesce(e.n, 0)), sum(e.mean::text::numeric), sum(e.mean::text::numeric * e.mean::text::numeric), min(e.mean), max(e.mean)
FROM (SELECT DISTINCT * FROM unnest(key_ids, metrics, device_ids)) AS t(key_id, metric, device_id)
CROSS JOIN LATERAL (
    SELECT m.run_id, m.unit, m.direction, m.n, m.mean, r.software->>'framework_version' AS framework_version
    FROM proj_result m
    JOIN proj_run r ON r.run_id = m.run_id
    WHERE m.key_id = t.key_id AND m.metric = t.metric AND m.device_id = t.device_id AND m.mean IS NOT NULL
      AND r.status = 'completed' AND r.valid AND NOT r.retracted AND r.benchmark IS NOT NULL
      AND r.software->>'framework_version' IS NOT NULL
    OFFSET 0) AS e
GROUP BY t.key_id, t.metric, t.device_id, e.framework_version;

INSERT INTO proj_leaderboard_all_runs_row (key_id, metric, device_id, benchmark, unit, direction, runs, n, mean, ci95_low,
                                           ci95_high, best, cv, last_run_at, failing)
SELECT t.key_id, t.metric, t.device_id, (array_agg(e.benchmark ORDER BY e.run_id))[1],
       (array_agg(e.unit ORDER BY e.run_id))[1], (array_agg(e.direction ORDER BY e.run_id))[1], count(*),
       coalesce(sum(e.n), 0), avg(e.mean::text::numeric)::float8,
       CASE WHEN count(*) = 1 THEN min(e.ci95_low) END, CASE WHEN count(*) = 1 THEN min(e.ci95_high) END, max(e.mean),
       CASE WHEN count(*) = 1 THEN min(e.cv) END, max(e.started_at), count(*) FILTER (WHERE NOT e.valid)
FROM (SELECT DISTINCT * FROM unnest(key_ids, metrics, device_ids)) AS t(key_id, metric, device_id)
CROSS JOIN LATERAL (
    SELECT m.run_id, r.benchmark, m.unit, m.direction, m.n, m.mean, m.ci95_low, m.ci95_high, m.cv, r.started_at,
           coalesce(r.valid, false) AS valid
    FROM proj_result m
    JOIN proj_run r ON r.run_id = m.run_id
    WHERE m.key_id = t.key_id AND m.metric = t.metric AND m.device_id = t.device_id
      AND r.status = 'completed' AND NOT r.retracted AND r.benchmark IS NOT NULL
    OFFSET 0) AS e
GROUP BY t.key_id, t.metric, t.device_id;
$$;

-- Every cell that has results: after a rebuild (and for fixtures that write results directly).
CREATE FUNCTION podium_refresh_all_page_cells() RETURNS VOID
LANGUAGE sql AS $$
SELECT podium_refresh_page_cells(coalesce(array_agg(key_id), '{}'), coalesce(array_agg(metric), '{}'),
                                 coalesce(array_agg(device_id), '{}'))
FROM (SELECT DISTINCT key_id, metric, device_id FROM proj_result WHERE key_id IS NOT NULL AND device_id IS NOT NULL) AS c;
$$;
