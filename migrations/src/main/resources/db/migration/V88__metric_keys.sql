-- What every leaderboard and comparison request first asks of a benchmark: its metrics (the most common first), the keys
-- with rows for each, and (the comparison's curves) which devices have rows under each key. Read from
-- proj_leaderboard_row, that took an index scan of every row of the benchmark (0.8 ms at 1,000,000 results) and, for
-- the curves, a read of the other groups' rows only to leave out nearly all of them (0.9 ms for, on average, none
-- kept). Here it is one row per (key, metric, source) with its devices: a few dozen rows a benchmark and metric.
CREATE TABLE proj_metric_key (
    benchmark  TEXT   NOT NULL,
    metric     TEXT   NOT NULL,
    key_id     TEXT   NOT NULL,
    source     TEXT   NOT NULL,
    device_ids TEXT[] NOT NULL,
    CONSTRAINT proj_metric_key_pkey PRIMARY KEY (benchmark, metric, key_id, source)
);
CREATE INDEX proj_metric_key_pair_idx ON proj_metric_key (key_id, metric);

COMMENT ON TABLE proj_metric_key IS
    'Per benchmark, metric, comparison key and source: the devices with a leaderboard row, in order.';

-- Rewrites the rows of the (key, metric) pairs given as two parallel arrays from their leaderboard rows; the leaderboard
-- projection calls it for every pair whose rows it deleted or inserted (extending a row changes no device set). Two
-- batches that rewrite the same pair at once collide on the primary key, since the later one's delete does not see the
-- earlier one's new rows, and the later batch is read again.
CREATE FUNCTION podium_refresh_metric_keys(key_ids TEXT[], metrics TEXT[]) RETURNS VOID
LANGUAGE sql AS $$
DELETE FROM proj_metric_key x USING unnest(key_ids, metrics) AS t(key_id, metric)
WHERE x.key_id = t.key_id AND x.metric = t.metric;

INSERT INTO proj_metric_key (benchmark, metric, key_id, source, device_ids)
SELECT l.benchmark, l.metric, l.key_id, l.source, array_agg(l.device_id ORDER BY l.device_id)
FROM (SELECT DISTINCT * FROM unnest(key_ids, metrics)) AS t(key_id, metric)
JOIN proj_leaderboard_row l ON l.key_id = t.key_id AND l.metric = t.metric
GROUP BY l.benchmark, l.metric, l.key_id, l.source
ORDER BY l.benchmark, l.metric, l.key_id, l.source;
$$;

-- Every row, from every leaderboard row: a rebuild's, and this migration's.
CREATE FUNCTION podium_refresh_all_metric_keys() RETURNS VOID
LANGUAGE sql AS $$
DELETE FROM proj_metric_key;

INSERT INTO proj_metric_key (benchmark, metric, key_id, source, device_ids)
SELECT benchmark, metric, key_id, source, array_agg(device_id ORDER BY device_id)
FROM proj_leaderboard_row
GROUP BY benchmark, metric, key_id, source;
$$;

SELECT podium_refresh_all_metric_keys();
