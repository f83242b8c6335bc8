-- Public lists rank benchmarks, a benchmark's comparison keys and devices by how many agents have counted runs of each,
-- then by those runs: counted leaderboard rows (one a device) let one enrolled agent put its own benchmark first by
-- measuring it on as many devices as its quota of new ones allows. A counted run is one the leaderboard's measured rows
-- hold: completed (so not superseded), valid, not retracted, with a mean under a comparison key and a device; here it
-- also needs an agent. Ingest keeps, per run, the (key, device) pairs it counts for with its benchmark and agent; per
-- benchmark, key and device the counted runs of each agent; and per benchmark, key and device the agents and counted
-- runs, which is all a list reads: one row an entry, however many agents measured it.
CREATE TABLE proj_rank_run (
    run_id    UUID NOT NULL,
    key_id    TEXT NOT NULL,
    device_id TEXT NOT NULL,
    benchmark TEXT NOT NULL,
    agent_id  TEXT NOT NULL,
    -- Every column: a run whose benchmark changed has another row, never the same row rewritten.
    PRIMARY KEY (run_id, key_id, device_id, benchmark, agent_id)
);

-- Counted runs per (entry, agent), and per entry the agents with counted runs and those runs. A row is deleted when its
-- count reaches 0, in the transaction that made it so (the partial indexes find those; a count below 0, which only rows
-- gone wrong would give, goes too).
CREATE TABLE proj_rank_benchmark_agent (
    benchmark    TEXT   NOT NULL,
    agent_id     TEXT   NOT NULL,
    counted_runs BIGINT NOT NULL,
    PRIMARY KEY (benchmark, agent_id)
);
CREATE INDEX proj_rank_benchmark_agent_spent_idx ON proj_rank_benchmark_agent (benchmark) WHERE counted_runs <= 0;

CREATE TABLE proj_rank_key_agent (
    benchmark    TEXT   NOT NULL,
    key_id       TEXT   NOT NULL,
    agent_id     TEXT   NOT NULL,
    counted_runs BIGINT NOT NULL,
    PRIMARY KEY (benchmark, key_id, agent_id)
);
CREATE INDEX proj_rank_key_agent_spent_idx ON proj_rank_key_agent (key_id) WHERE counted_runs <= 0;

CREATE TABLE proj_rank_device_agent (
    device_id    TEXT   NOT NULL,
    agent_id     TEXT   NOT NULL,
    counted_runs BIGINT NOT NULL,
    PRIMARY KEY (device_id, agent_id)
);
CREATE INDEX proj_rank_device_agent_spent_idx ON proj_rank_device_agent (device_id) WHERE counted_runs <= 0;

CREATE TABLE proj_rank_benchmark (
    benchmark    TEXT   NOT NULL,
    agents       INT    NOT NULL,
    counted_runs BIGINT NOT NULL,
    PRIMARY KEY (benchmark) INCLUDE (agents, counted_runs)
);
CREATE INDEX proj_rank_benchmark_spent_idx ON proj_rank_benchmark (benchmark) WHERE counted_runs <= 0;

CREATE TABLE proj_rank_key (
    benchmark    TEXT   NOT NULL,
    key_id       TEXT   NOT NULL,
    agents       INT    NOT NULL,
    counted_runs BIGINT NOT NULL,
    PRIMARY KEY (benchmark, key_id) INCLUDE (agents, counted_runs)
);
CREATE INDEX proj_rank_key_spent_idx ON proj_rank_key (key_id) WHERE counted_runs <= 0;

CREATE TABLE proj_rank_device (
    device_id    TEXT   NOT NULL,
    agents       INT    NOT NULL,
    counted_runs BIGINT NOT NULL,
    PRIMARY KEY (device_id) INCLUDE (agents, counted_runs)
);
CREATE INDEX proj_rank_device_spent_idx ON proj_rank_device (device_id) WHERE counted_runs <= 0;

-- Rewrites the proj_rank_run rows of the given runs from their run rows and results, and adds to the counts what each
-- run gained (+1) or lost (-1) per entry and agent; an entry gains an agent whose count there leaves 0 and loses one
-- whose count returns to it. A run applied twice changes nothing, and a batch reads the rows of its own runs and the
-- counts they change, whatever the history holds. Every run a batch touches had its proj_run row written by the batch,
-- so two batches that touch one run take turns on that row; the counts are upserted in key order, table by table.
CREATE FUNCTION podium_refresh_rank_runs(run_ids UUID[]) RETURNS VOID
LANGUAGE sql AS $$
WITH now AS MATERIALIZED (
    SELECT DISTINCT c.run_id, c.key_id, c.device_id, c.benchmark, c.agent_id
    FROM (SELECT DISTINCT * FROM unnest(run_ids)) AS t(run_id)
    CROSS JOIN LATERAL (
        SELECT r.run_id, m.key_id, m.device_id, r.benchmark, r.agent_id
        FROM proj_run r JOIN proj_result m ON m.run_id = r.run_id
        WHERE r.run_id = t.run_id AND r.status = 'completed' AND r.valid AND NOT r.retracted
          AND r.benchmark IS NOT NULL AND r.agent_id IS NOT NULL
          AND m.key_id IS NOT NULL AND m.device_id IS NOT NULL AND m.mean IS NOT NULL
        OFFSET 0) AS c
),
was AS MATERIALIZED (
    SELECT x.run_id, x.key_id, x.device_id, x.benchmark, x.agent_id
    FROM (SELECT DISTINCT * FROM unnest(run_ids)) AS t(run_id)
    CROSS JOIN LATERAL (SELECT * FROM proj_rank_run p WHERE p.run_id = t.run_id OFFSET 0) AS x
),
gone AS (
    DELETE FROM proj_rank_run p
    USING (SELECT * FROM was EXCEPT SELECT * FROM now) AS g
    WHERE p.run_id = g.run_id AND p.key_id = g.key_id AND p.device_id = g.device_id AND p.benchmark = g.benchmark
      AND p.agent_id = g.agent_id
),
came AS (
    INSERT INTO proj_rank_run (run_id, key_id, device_id, benchmark, agent_id)
    SELECT * FROM now EXCEPT SELECT * FROM was
    ON CONFLICT DO NOTHING
),
benchmark_delta AS MATERIALIZED (
    SELECT benchmark, agent_id, sum(d) AS d
    FROM (SELECT DISTINCT run_id, benchmark, agent_id, 1 AS d FROM now
          UNION ALL SELECT DISTINCT run_id, benchmark, agent_id, -1 FROM was) AS x
    GROUP BY benchmark, agent_id HAVING sum(d) <> 0
),
benchmark_agents AS (
    INSERT INTO proj_rank_benchmark_agent AS t (benchmark, agent_id, counted_runs)
    SELECT benchmark, agent_id, d FROM benchmark_delta ORDER BY benchmark, agent_id
    ON CONFLICT (benchmark, agent_id) DO UPDATE SET counted_runs = t.counted_runs + excluded.counted_runs
    RETURNING t.benchmark, t.agent_id, t.counted_runs
),
benchmarks AS (
    INSERT INTO proj_rank_benchmark AS t (benchmark, agents, counted_runs)
    SELECT a.benchmark, sum((a.counted_runs > 0)::int - (a.counted_runs - d.d > 0)::int), sum(d.d)
    FROM benchmark_agents a JOIN benchmark_delta d ON d.benchmark = a.benchmark AND d.agent_id = a.agent_id
    GROUP BY a.benchmark ORDER BY a.benchmark
    ON CONFLICT (benchmark) DO UPDATE
        SET agents = t.agents + excluded.agents, counted_runs = t.counted_runs + excluded.counted_runs
),
key_delta AS MATERIALIZED (
    SELECT benchmark, key_id, agent_id, sum(d) AS d
    FROM (SELECT DISTINCT run_id, benchmark, key_id, agent_id, 1 AS d FROM now
          UNION ALL SELECT DISTINCT run_id, benchmark, key_id, agent_id, -1 FROM was) AS x
    GROUP BY benchmark, key_id, agent_id HAVING sum(d) <> 0
),
key_agents AS (
    INSERT INTO proj_rank_key_agent AS t (benchmark, key_id, agent_id, counted_runs)
    SELECT benchmark, key_id, agent_id, d FROM key_delta ORDER BY benchmark, key_id, agent_id
    ON CONFLICT (benchmark, key_id, agent_id) DO UPDATE SET counted_runs = t.counted_runs + excluded.counted_runs
    RETURNING t.benchmark, t.key_id, t.agent_id, t.counted_runs
),
keys AS (
    INSERT INTO proj_rank_key AS t (benchmark, key_id, agents, counted_runs)
    SELECT a.benchmark, a.key_id, sum((a.counted_runs > 0)::int - (a.counted_runs - d.d > 0)::int), sum(d.d)
    FROM key_agents a
    JOIN key_delta d ON d.benchmark = a.benchmark AND d.key_id = a.key_id AND d.agent_id = a.agent_id
    GROUP BY a.benchmark, a.key_id ORDER BY a.benchmark, a.key_id
    ON CONFLICT (benchmark, key_id) DO UPDATE
        SET agents = t.agents + excluded.agents, counted_runs = t.counted_runs + excluded.counted_runs
),
device_delta AS MATERIALIZED (
    SELECT device_id, agent_id, sum(d) AS d
    FROM (SELECT DISTINCT run_id, device_id, agent_id, 1 AS d FROM now
          UNION ALL SELECT DISTINCT run_id, device_id, agent_id, -1 FROM was) AS x
    GROUP BY device_id, agent_id HAVING sum(d) <> 0
),
device_agents AS (
    INSERT INTO proj_rank_device_agent AS t (device_id, agent_id, counted_runs)
    SELECT device_id, agent_id, d FROM device_delta ORDER BY device_id, agent_id
    ON CONFLICT (device_id, agent_id) DO UPDATE SET counted_runs = t.counted_runs + excluded.counted_runs
    RETURNING t.device_id, t.agent_id, t.counted_runs
)
INSERT INTO proj_rank_device AS t (device_id, agents, counted_runs)
SELECT a.device_id, sum((a.counted_runs > 0)::int - (a.counted_runs - d.d > 0)::int), sum(d.d)
FROM device_agents a JOIN device_delta d ON d.device_id = a.device_id AND d.agent_id = a.agent_id
GROUP BY a.device_id ORDER BY a.device_id
ON CONFLICT (device_id) DO UPDATE
    SET agents = t.agents + excluded.agents, counted_runs = t.counted_runs + excluded.counted_runs;

DELETE FROM proj_rank_benchmark_agent WHERE counted_runs <= 0;
DELETE FROM proj_rank_key_agent WHERE counted_runs <= 0;
DELETE FROM proj_rank_device_agent WHERE counted_runs <= 0;
DELETE FROM proj_rank_benchmark WHERE counted_runs <= 0;
DELETE FROM proj_rank_key WHERE counted_runs <= 0;
DELETE FROM proj_rank_device WHERE counted_runs <= 0;
$$;

-- Every table afresh from every counted run: a rebuild, after its replay, and this migration for what is stored.
CREATE FUNCTION podium_refresh_all_rank() RETURNS VOID
LANGUAGE sql SET work_mem = '128MB' AS $$
DELETE FROM proj_rank_run;
DELETE FROM proj_rank_benchmark_agent;
DELETE FROM proj_rank_key_agent;
DELETE FROM proj_rank_device_agent;
DELETE FROM proj_rank_benchmark;
DELETE FROM proj_rank_key;
DELETE FROM proj_rank_device;
SELECT podium_refresh_rank_runs((SELECT coalesce(array_agg(run_id), '{}') FROM proj_run
                                 WHERE status = 'completed' AND valid AND NOT retracted));
$$;

SELECT podium_refresh_all_rank();
