-- Indexes for query-service's device and benchmark pages, which list recent runs and leaderboard rows of one device or
-- one benchmark; without them those pages scan every run.
CREATE INDEX proj_run_device_started_idx ON proj_run (device_id, started_at DESC);
CREATE INDEX proj_run_benchmark_started_idx ON proj_run (benchmark, started_at DESC);
CREATE INDEX proj_leaderboard_row_device_idx ON proj_leaderboard_row (device_id);
CREATE INDEX proj_published_claim_benchmark_idx ON proj_published_claim (benchmark);
