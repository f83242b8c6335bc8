-- Energy per unit of work as ingest keeps it (EnergyProjection), so that no page reads power samples or a key's runs:
-- per run its average system power, and per (comparison key, metric, device) cell the sums a mean of joules per unit
-- and of watts needs. Both are recomputed from proj_run_series, proj_result and proj_run for what a batch touched, and
-- for all after a rebuild (TRUNCATE and replay gives the same rows). Created empty: POST /admin/rebuild fills them
-- from a store that already holds power samples.

-- A run's average system power from its POWER samples: each device index's samples averaged (exactly, as numeric),
-- summed over devices (samples without an index count as one device); how many samples it was taken from.
CREATE TABLE proj_run_power (
    run_id       UUID             PRIMARY KEY,
    system_watts DOUBLE PRECISION NOT NULL,
    samples      INT              NOT NULL
);

-- Per cell, over the completed, not retracted runs with power and a positive rate for the metric: joules per unit
-- (system watts / system rate) and system watts, summed exactly; counted runs (valid) apart from those that failed a
-- validity check, so the leaderboard with failing runs included adds the two.
CREATE TABLE proj_energy_cell (
    key_id             TEXT    NOT NULL,
    metric             TEXT    NOT NULL,
    device_id          TEXT    NOT NULL,
    runs               INT     NOT NULL,
    joules_sum         NUMERIC NOT NULL,
    watts_sum          NUMERIC NOT NULL,
    failing_runs       INT     NOT NULL,
    failing_joules_sum NUMERIC NOT NULL,
    failing_watts_sum  NUMERIC NOT NULL,
    PRIMARY KEY (key_id, metric, device_id)
);
