-- Energy per unit of work over the measured window only (issue 40 item 5). The window is what the contract already calls
-- it (ThrottleSpan): the samples that belong to a repetition; samples the agent takes before the first repetition
-- (start-up) carry none and are left out. The per-run power sums stay the running sums of V97: each device row and each
-- run row gains the window's count and exact sum beside the whole run's, so a batch still adds only what it brings.
ALTER TABLE proj_run_power_device ADD COLUMN window_samples BIGINT NOT NULL DEFAULT 0;
ALTER TABLE proj_run_power_device ADD COLUMN window_watts_sum NUMERIC NOT NULL DEFAULT 0;

-- The window's system power: per device index the mean of its window samples, summed over devices (exactly, as watts
-- is); window_samples = 0 means the run has no power in its measured window and counts for no energy cell.
ALTER TABLE proj_run_power ADD COLUMN window_samples BIGINT NOT NULL DEFAULT 0;
ALTER TABLE proj_run_power ADD COLUMN window_watts_exact NUMERIC NOT NULL DEFAULT 0;

-- Per cell, what an interval needs beside the sums of V81, for the counted runs and apart for those that failed a check:
-- per run x = joules per unit (window watts ÷ system rate) and y = device-seconds per unit (accelerators ÷ system rate),
-- summed with their squares and their product, so any price basis (a linear a·y + b·x) gets a mean and a t interval
-- at read time: prices change without a rebuild. watts_sum is now the sum of the runs' window watts.
ALTER TABLE proj_energy_cell ADD COLUMN joules_sq NUMERIC NOT NULL DEFAULT 0;
ALTER TABLE proj_energy_cell ADD COLUMN device_seconds_sum NUMERIC NOT NULL DEFAULT 0;
ALTER TABLE proj_energy_cell ADD COLUMN device_seconds_sq NUMERIC NOT NULL DEFAULT 0;
ALTER TABLE proj_energy_cell ADD COLUMN joules_device_seconds NUMERIC NOT NULL DEFAULT 0;
ALTER TABLE proj_energy_cell ADD COLUMN failing_joules_sq NUMERIC NOT NULL DEFAULT 0;
ALTER TABLE proj_energy_cell ADD COLUMN failing_device_seconds_sum NUMERIC NOT NULL DEFAULT 0;
ALTER TABLE proj_energy_cell ADD COLUMN failing_device_seconds_sq NUMERIC NOT NULL DEFAULT 0;
ALTER TABLE proj_energy_cell ADD COLUMN failing_joules_device_seconds NUMERIC NOT NULL DEFAULT 0;

-- The rows of runs already stored were summed over the whole run; the window needs the samples' repetitions, which only
-- the event store holds. Emptied here so no page shows a whole-run figure as a window's: POST /admin/rebuild refills them.
DELETE FROM proj_energy_cell;
