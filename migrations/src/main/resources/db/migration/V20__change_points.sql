-- Change points (steps) of every history: one history is a comparison key, metric and device, one point per counted,
-- valid run (its mean) in the order the runs started. Ingest computes them after the batch that touched a history,
-- outside that batch's transaction, so the pages read rows instead of running step detection per request.

-- A step: the first run at the new level, the levels before and after, and its size in noise σ.
CREATE TABLE proj_change_point (
    key_id         TEXT             NOT NULL,
    metric         TEXT             NOT NULL,
    device_id      TEXT             NOT NULL,
    run_id         UUID             NOT NULL,
    kind           TEXT             NOT NULL CHECK (kind IN ('regression', 'improvement')),
    benchmark      TEXT,
    unit           TEXT,
    level_before   DOUBLE PRECISION NOT NULL,
    level_after    DOUBLE PRECISION NOT NULL,
    sigmas         DOUBLE PRECISION NOT NULL,
    point_index    INT              NOT NULL,
    started_at     TIMESTAMPTZ      NOT NULL,
    version_before TEXT,
    version_after  TEXT,
    PRIMARY KEY (key_id, metric, device_id, run_id)
);
CREATE INDEX proj_change_point_recent_idx ON proj_change_point (started_at DESC, key_id, device_id);
CREATE INDEX proj_change_point_kind_idx ON proj_change_point (kind, started_at DESC, key_id, device_id);
CREATE INDEX proj_change_point_benchmark_idx ON proj_change_point (benchmark, kind, started_at DESC, key_id, device_id);

-- Every history searched for steps, with its number of points.
CREATE TABLE proj_history (
    key_id    TEXT NOT NULL,
    metric    TEXT NOT NULL,
    device_id TEXT NOT NULL,
    benchmark TEXT,
    points    INT  NOT NULL,
    PRIMARY KEY (key_id, metric, device_id)
);
CREATE INDEX proj_history_benchmark_idx ON proj_history (benchmark);

-- What batches touched that histories depend on: runs (whatever their results' histories are now) and histories a
-- result left. Insert-only from a batch (no row is shared, so no batch waits on another or on the updater), deleted by
-- the updater once folded in. position is the highest event position of the batch.
CREATE TABLE history_touched (
    id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id    UUID,
    key_id    TEXT,
    metric    TEXT,
    device_id TEXT,
    position  BIGINT NOT NULL
);

-- The updater's progress: the highest event position it has folded in, when, and totals for the regressions page.
CREATE TABLE history_state (
    id         INT         PRIMARY KEY CHECK (id = 1),
    position   BIGINT      NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    method     TEXT        NOT NULL,
    histories  INT         NOT NULL,
    points     BIGINT      NOT NULL
);

-- Histories that exist before this migration are computed by the first updater round.
INSERT INTO history_touched (run_id, position)
SELECT DISTINCT r.run_id, 0 FROM proj_result r;
