-- The points of a history as ingest's step detection reads them: a history's counted runs, newest first (the history
-- page reads the log sums too and keeps the primary key's range). proj_cell_run's primary key orders a history's rows
-- by run id and carries every column a page cell sums, so reading a history from it meant every leaf page of the range
-- (about 350 bytes a row) and a sort; at 7,000,000 results (about 290 points a history) the change-point updater's read
-- of 200 touched histories took about a second from disk. This index holds only the rows and the columns the detector
-- reads, in the order it reads them: one ordered range of a few pages a history, no sort. The WHERE clause is the
-- detector's filter and must stay identical to it.
CREATE INDEX proj_cell_run_history_idx ON proj_cell_run (key_id, metric, device_id, started_at DESC, run_id DESC)
    INCLUDE (benchmark, unit, direction, mean, framework_version)
    WHERE valid AND started_at IS NOT NULL AND mean IS NOT NULL;
