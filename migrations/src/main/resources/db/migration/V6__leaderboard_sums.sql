-- What a leaderboard row is computed from, so that a batch of new runs extends the row instead of reading every run
-- of its (key, metric, device) again: the exact sum and sum of squares of the run means (numeric holds each double
-- exactly, and exact sums do not depend on the order runs arrive in), the smallest and largest mean, and the run whose
-- benchmark, unit and direction the row shows (the lowest run id, as a full recompute picks). Rows written before this
-- migration have none of it and are recomputed from their runs the next time they change.
ALTER TABLE proj_leaderboard_row
    ADD COLUMN mean_sum         NUMERIC,
    ADD COLUMN mean_sum_squares NUMERIC,
    ADD COLUMN mean_min         DOUBLE PRECISION,
    ADD COLUMN mean_max         DOUBLE PRECISION,
    ADD COLUMN first_run_id     UUID;
