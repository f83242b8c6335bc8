-- The change-point updater reads each touched history's points (about 290 a history at 7,000,000 results) for three
-- figures: start, run and mean. V91's index also carried the benchmark, unit, direction and framework version of every
-- point, which the updater now reads only for the few runs a history's rows name (from the primary key), so each entry
-- is about a third smaller: fewer pages a round, and more of the index stays in memory. The WHERE clause is the
-- detector's filter and must stay identical to it.
CREATE INDEX proj_cell_run_history_points_idx ON proj_cell_run (key_id, metric, device_id, started_at DESC, run_id DESC)
    INCLUDE (mean)
    WHERE valid AND started_at IS NOT NULL AND mean IS NOT NULL;
DROP INDEX proj_cell_run_history_idx;
