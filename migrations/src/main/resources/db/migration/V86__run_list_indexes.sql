-- The run lists (the home page's, a device's, a benchmark's) are newest first with runs not yet started last:
-- started_at DESC NULLS LAST. An index on started_at DESC keeps nulls first, which PostgreSQL cannot read in that
-- order, so each list sorted every run of the store (1 to 2 s at 1,000,000 runs).
DROP INDEX proj_run_started_idx;
DROP INDEX proj_run_device_started_idx;
DROP INDEX proj_run_benchmark_started_idx;
CREATE INDEX proj_run_started_idx ON proj_run (started_at DESC NULLS LAST);
CREATE INDEX proj_run_device_started_idx ON proj_run (device_id, started_at DESC NULLS LAST);
CREATE INDEX proj_run_benchmark_started_idx ON proj_run (benchmark, started_at DESC NULLS LAST);
