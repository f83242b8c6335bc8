-- A run's series are stored downsampled and its power as running sums, so that what a batch costs depends on what it
-- brings, never on what the run already holds; every raw sample stays in the event store.
--
-- Per run and series kind: how many samples arrived (their arrival index is their order by event position, then by
-- place in the event), the stride, a power of two, and the kept points, those whose index is a multiple of the stride.
-- When more than 2,000 would be kept the stride doubles and every other point goes, so a series keeps between 1,000 and
-- 2,000 points whatever its length, spread evenly over it.
CREATE TABLE proj_run_series_head (
    run_id        UUID   NOT NULL,
    series        TEXT   NOT NULL,
    unit          TEXT   NOT NULL,
    samples       BIGINT NOT NULL,
    events        INT    NOT NULL,
    stride        BIGINT NOT NULL,
    last_position BIGINT NOT NULL,
    PRIMARY KEY (run_id, series)
);

CREATE TABLE proj_run_series_point (
    run_id     UUID             NOT NULL,
    series     TEXT             NOT NULL,
    idx        BIGINT           NOT NULL,
    t          DOUBLE PRECISION NOT NULL,
    value      DOUBLE PRECISION NOT NULL,
    repetition INT,
    device     INT,
    PRIMARY KEY (run_id, series, idx)
);

-- A run's POWER samples per device index (-1 for samples without one): count and exact sum. proj_run_power's watts are
-- the sum over devices of their means, kept exactly (watts_exact) by adding each device's change of mean.
CREATE TABLE proj_run_power_device (
    run_id    UUID    NOT NULL,
    device    INT     NOT NULL,
    samples   BIGINT  NOT NULL,
    watts_sum NUMERIC NOT NULL,
    PRIMARY KEY (run_id, device)
);

ALTER TABLE proj_run_power ADD COLUMN watts_exact NUMERIC;
ALTER TABLE proj_run_power ADD COLUMN last_position BIGINT NOT NULL DEFAULT 0;
ALTER TABLE proj_run_power ALTER COLUMN samples TYPE BIGINT;

-- The rows of the runs already stored, from proj_run_series as the projections would have left them.
WITH s AS (
    SELECT r.run_id, r.series, r.position, r.unit, e.sample,
           row_number() OVER (PARTITION BY r.run_id, r.series ORDER BY r.position, e.ord) - 1 AS idx
    FROM proj_run_series r
    CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(r.samples) = 'array' THEN r.samples
                                                 ELSE '[]'::jsonb END) WITH ORDINALITY e(sample, ord)
), heads AS (
    SELECT run_id, series, (array_agg(unit ORDER BY position))[1] AS unit, count(*) AS samples,
           count(DISTINCT position)::int AS events, max(position) AS last_position
    FROM s GROUP BY run_id, series
), strided AS (
    SELECT h.*, (SELECT min(2::bigint ^ g) FROM generate_series(0, 62) g
                 WHERE ceil(h.samples / (2::numeric ^ g)) <= 2000)::bigint AS stride
    FROM heads h
), inserted AS (
    INSERT INTO proj_run_series_head (run_id, series, unit, samples, events, stride, last_position)
    SELECT run_id, series, unit, samples, events, stride, last_position FROM strided
    RETURNING run_id, series, stride
)
INSERT INTO proj_run_series_point (run_id, series, idx, t, value, repetition, device)
SELECT s.run_id, s.series, s.idx, (s.sample->>'t')::float8, (s.sample->>'value')::float8,
       (s.sample->>'repetition')::int, (s.sample->>'device')::int
FROM s JOIN inserted i ON i.run_id = s.run_id AND i.series = s.series
WHERE s.idx % i.stride = 0;

INSERT INTO proj_run_power_device (run_id, device, samples, watts_sum)
SELECT s.run_id, coalesce((e.sample->>'device')::int, -1), count(*), sum((e.sample->>'value')::numeric)
FROM proj_run_series s CROSS JOIN LATERAL jsonb_array_elements(s.samples) e(sample)
WHERE s.series = 'POWER' AND jsonb_typeof(s.samples) = 'array'
GROUP BY 1, 2;

DELETE FROM proj_run_power;
INSERT INTO proj_run_power (run_id, system_watts, samples, watts_exact, last_position)
SELECT d.run_id, sum(d.watts_sum / d.samples)::float8, sum(d.samples), sum(d.watts_sum / d.samples),
       (SELECT max(position) FROM proj_run_series s WHERE s.run_id = d.run_id AND s.series = 'POWER')
FROM proj_run_power_device d GROUP BY d.run_id;

ALTER TABLE proj_run_power ALTER COLUMN watts_exact SET NOT NULL;
ALTER TABLE proj_run_power ALTER COLUMN last_position DROP DEFAULT;

DROP TABLE proj_run_series;
