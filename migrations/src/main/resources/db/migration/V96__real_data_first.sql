-- Run lists (the home page's, a device's, a benchmark's) are newest first in the order ingest stored each run's
-- RunStarted (started_position), no longer by started_at: that is the writer's occurred_at, and a run dated a day ahead
-- stayed on top for a day. These replace V86's indexes on started_at, which only those lists read.
DROP INDEX proj_run_started_idx;
DROP INDEX proj_run_device_started_idx;
DROP INDEX proj_run_benchmark_started_idx;
CREATE INDEX proj_run_started_idx ON proj_run (started_position DESC NULLS LAST);
CREATE INDEX proj_run_device_started_idx ON proj_run (device_id, started_position DESC NULLS LAST);
CREATE INDEX proj_run_benchmark_started_idx ON proj_run (benchmark, started_position DESC NULLS LAST);

-- The device list puts devices with counted (measured) leaderboard rows first: one index probe per device with rows,
-- which needs the source beside the device. Replaces V5's index on device_id alone (the device page reads it too).
DROP INDEX proj_leaderboard_row_device_idx;
CREATE INDEX proj_leaderboard_row_device_idx ON proj_leaderboard_row (device_id, source);
