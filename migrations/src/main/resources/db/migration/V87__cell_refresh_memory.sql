-- A rebuild refreshes the cells of every completed run at once: podium_refresh_cell_runs then reads proj_result by
-- run_id = ANY(every run id) through a bitmap of the rows it wants. Under the default work_mem (4 MB) that bitmap turns
-- lossy at about 1,500,000 runs, and then every row of a lossy page is checked again against the whole array, one
-- element after another: quadratic (2,000,000 runs: over 15 minutes in this one statement, where 1,000,000 took about
-- one; 3,000,000 never finished). With room for an exact bitmap (some 60 bytes a heap page: 20 MB at 10,000,000 runs)
-- only the index decides, and the sorts of the refresh stay in memory. Live batches pass tens of runs and do not call it.
ALTER FUNCTION podium_refresh_all_page_cells() SET work_mem = '128MB';
