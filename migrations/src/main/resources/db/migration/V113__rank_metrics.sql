-- A benchmark's metrics are ranked like its keys (V101): by how many agents have counted runs reporting each, then by
-- those runs. Ranked by leaderboard rows, one enrolled agent reporting made-up metrics on its own keys and devices could
-- push the real metrics down or off the selector. A run counts for a metric when the leaderboard's measured rows would
-- hold its result for it (the counted-run rule of V101, per metric); per run, the metrics it counts for are kept, per
-- (benchmark, metric) the counted runs of each agent, and per (benchmark, metric) the agents and counted runs, which is
-- all a list reads.
CREATE TABLE proj_rank_metric_run (
    run_id    UUID NOT NULL,
    benchmark TEXT NOT NULL,
    metric    TEXT NOT NULL,
    agent_id  TEXT NOT NULL,
    PRIMARY KEY (run_id, benchmark, metric, agent_id)
);

CREATE TABLE proj_rank_metric_agent (
    benchmark    TEXT   NOT NULL,
    metric       TEXT   NOT NULL,
    agent_id     TEXT   NOT NULL,
    counted_runs BIGINT NOT NULL,
    PRIMARY KEY (benchmark, metric, agent_id)
);
CREATE INDEX proj_rank_metric_agent_spent_idx ON proj_rank_metric_agent (benchmark) WHERE counted_runs <= 0;

CREATE TABLE proj_rank_metric (
    benchmark    TEXT   NOT NULL,
    metric       TEXT   NOT NULL,
    agents       INT    NOT NULL,
    counted_runs BIGINT NOT NULL,
    PRIMARY KEY (benchmark, metric) INCLUDE (agents, counted_runs)
);
-- A list reads a benchmark's metrics in rank order and stops at its limit.
CREATE INDEX proj_rank_metric_spent_idx ON proj_rank_metric (benchmark) WHERE counted_runs <= 0;
CREATE INDEX proj_rank_metric_order_idx ON proj_rank_metric (benchmark, agents DESC, counted_runs DESC, metric);

-- As podium_refresh_rank_runs, per metric: rewrites the given runs' rows and adds to the counts what each run gained or
-- lost per (benchmark, metric) and agent, in key order.
CREATE FUNCTION podium_refresh_rank_metric_runs(run_ids UUID[]) RETURNS VOID
LANGUAGE sql AS $$
WITH now AS MATERIALIZED (
    SELECT DISTINCT c.run_id, c.benchmark, c.metric, c.agent_id
    FROM (SELECT DISTINCT * FROM unnest(run_ids)) AS t(run_id)
    CROSS JOIN LATERAL (
        SELECT r.run_id, r.benchmark, m.metric, r.agent_id
        FROM proj_run r JOIN proj_result m ON m.run_id = r.run_id
        WHERE r.run_id = t.run_id AND r.status = 'completed' AND r.valid AND NOT r.retracted
          AND r.benchmark IS NOT NULL AND r.agent_id IS NOT NULL
          AND m.key_id IS NOT NULL AND m.device_id IS NOT NULL AND m.mean IS NOT NULL
        OFFSET 0) AS c
),
was AS MATERIALIZED (
    SELECT x.run_id, x.benchmark, x.metric, x.agent_id
    FROM (SELECT DISTINCT * FROM unnest(run_ids)) AS t(run_id)
    CROSS JOIN LATERAL (SELECT * FROM proj_rank_metric_run p WHERE p.run_id = t.run_id OFFSET 0) AS x
),
gone AS (
    DELETE FROM proj_rank_metric_run p
    USING (SELECT * FROM was EXCEPT SELECT * FROM now) AS g
    WHERE p.run_id = g.run_id AND p.benchmark = g.benchmark AND p.metric = g.metric AND p.agent_id = g.agent_id
),
came AS (
    INSERT INTO proj_rank_metric_run (run_id, benchmark, metric, agent_id)
    SELECT * FROM now EXCEPT SELECT * FROM was
    ON CONFLICT DO NOTHING
),
delta AS MATERIALIZED (
    SELECT benchmark, metric, agent_id, sum(d) AS d
    FROM (SELECT run_id, benchmark, metric, agent_id, 1 AS d FROM now
          UNION ALL SELECT run_id, benchmark, metric, agent_id, -1 FROM was) AS x
    GROUP BY benchmark, metric, agent_id HAVING sum(d) <> 0
),
metric_agents AS (
    INSERT INTO proj_rank_metric_agent AS t (benchmark, metric, agent_id, counted_runs)
    SELECT benchmark, metric, agent_id, d FROM delta ORDER BY benchmark, metric, agent_id
    ON CONFLICT (benchmark, metric, agent_id) DO UPDATE SET counted_runs = t.counted_runs + excluded.counted_runs
    RETURNING t.benchmark, t.metric, t.agent_id, t.counted_runs
)
INSERT INTO proj_rank_metric AS t (benchmark, metric, agents, counted_runs)
SELECT a.benchmark, a.metric, sum((a.counted_runs > 0)::int - (a.counted_runs - d.d > 0)::int), sum(d.d)
FROM metric_agents a
JOIN delta d ON d.benchmark = a.benchmark AND d.metric = a.metric AND d.agent_id = a.agent_id
GROUP BY a.benchmark, a.metric ORDER BY a.benchmark, a.metric
ON CONFLICT (benchmark, metric) DO UPDATE
    SET agents = t.agents + excluded.agents, counted_runs = t.counted_runs + excluded.counted_runs;

DELETE FROM proj_rank_metric_agent WHERE counted_runs <= 0;
DELETE FROM proj_rank_metric WHERE counted_runs <= 0;
$$;

-- Every row afresh from every counted run: a rebuild, after its replay, and this migration for what is stored.
CREATE FUNCTION podium_refresh_all_rank_metrics() RETURNS VOID
LANGUAGE sql SET work_mem = '128MB' AS $$
DELETE FROM proj_rank_metric_run;
DELETE FROM proj_rank_metric_agent;
DELETE FROM proj_rank_metric;
SELECT podium_refresh_rank_metric_runs((SELECT coalesce(array_agg(run_id), '{}') FROM proj_run
                                        WHERE status = 'completed' AND valid AND NOT retracted));
$$;

SELECT podium_refresh_all_rank_metrics();

GRANT SELECT ON proj_rank_metric TO podium_query;
