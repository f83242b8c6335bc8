-- Hardware use: MFU against the datasheet peak, MBU against the peak bandwidth and the share of the matmul rate measured
-- on the same host, for metrics whose workload states what one unit costs (Metric.work).
-- Per host, device and precision, the best per-accelerator rate of a completed mamf run and its interval.
CREATE TABLE proj_host_matmul (
    host_key  text NOT NULL,
    device_id text NOT NULL,
    precision text NOT NULL,
    run_id    uuid NOT NULL,
    tflops    double precision NOT NULL,
    ci95_low  double precision,
    ci95_high double precision,
    PRIMARY KEY (host_key, device_id, precision)
);

-- Per run and rate metric stating its work: per repetition, the share of the host's matmul rate known when the run
-- ended, MFU and MBU, as sums for an interval; the denominators used beside them. One row per metric of a run.
CREATE TABLE proj_run_hardware_use (
    run_id        uuid NOT NULL,
    metric        text NOT NULL,
    key_id        text NOT NULL,
    device_id     text NOT NULL,
    basis         text NOT NULL,
    matmul_tflops double precision,
    share_n       integer NOT NULL DEFAULT 0,
    share_sum     double precision NOT NULL DEFAULT 0,
    share_sumsq   double precision NOT NULL DEFAULT 0,
    peak_tflops   double precision,
    mfu_n         integer NOT NULL DEFAULT 0,
    mfu_sum       double precision NOT NULL DEFAULT 0,
    mfu_sumsq     double precision NOT NULL DEFAULT 0,
    peak_tbps     double precision,
    mbu_n         integer NOT NULL DEFAULT 0,
    mbu_sum       double precision NOT NULL DEFAULT 0,
    mbu_sumsq     double precision NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, metric)
);
CREATE INDEX proj_run_hardware_use_cell_idx ON proj_run_hardware_use (key_id, metric, device_id);

-- What a leaderboard row shows: per key, metric, device and validity, the sums over its completed, not retracted runs
-- (exact numeric sums, so a rebuild gives the same row), the mean matmul denominator and the peaks.
CREATE TABLE proj_hardware_use_cell (
    key_id         text NOT NULL,
    metric         text NOT NULL,
    device_id      text NOT NULL,
    valid          boolean NOT NULL,
    runs           integer NOT NULL,
    basis          text NOT NULL,
    matmul_runs    integer NOT NULL,
    matmul_sum     double precision NOT NULL,
    share_n        integer NOT NULL,
    share_sum      double precision NOT NULL,
    share_sumsq    double precision NOT NULL,
    peak_tflops    double precision,
    mfu_n          integer NOT NULL,
    mfu_sum        double precision NOT NULL,
    mfu_sumsq      double precision NOT NULL,
    peak_tbps      double precision,
    mbu_n          integer NOT NULL,
    mbu_sum        double precision NOT NULL,
    mbu_sumsq      double precision NOT NULL,
    PRIMARY KEY (key_id, metric, device_id, valid)
);

GRANT SELECT ON proj_hardware_use_cell, proj_host_matmul TO podium_query;
