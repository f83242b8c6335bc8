-- not_throttled, judged by ingest: per run, the devices its RunStarted named (identity, power limit and default) and how
-- many throttle-reason samples its measured window held, with the position of the last event folded in (replays skip
-- what it already holds); per run, device and reason, the window's samples showing that reason, first and last seen.
-- Running sums, so a batch costs what it brings.
CREATE TABLE proj_run_throttle_head (
    run_id        uuid PRIMARY KEY,
    devices       jsonb,
    samples       bigint NOT NULL DEFAULT 0,
    last_position bigint NOT NULL DEFAULT 0
);

CREATE TABLE proj_run_throttle (
    run_id  uuid NOT NULL,
    device  integer NOT NULL,
    reason  text NOT NULL,
    samples bigint NOT NULL,
    first_t double precision NOT NULL,
    last_t  double precision NOT NULL,
    PRIMARY KEY (run_id, device, reason)
);
