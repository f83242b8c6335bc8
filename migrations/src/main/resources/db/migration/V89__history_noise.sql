-- A step's size in noise σ moves with every point its history gains, since σ is estimated over the whole history: kept
-- on each step, it made the change-point updater rewrite every step of every history it touched. The history keeps its
-- σ instead, and pages derive each step's size, |level_after − level_before| ÷ σ, when they read it.
ALTER TABLE proj_history ADD COLUMN sigma DOUBLE PRECISION;
ALTER TABLE proj_change_point DROP COLUMN sigmas;

-- Histories that exist before this migration get their σ at the updater's next rounds; their steps are not new.
INSERT INTO history_touched (key_id, metric, device_id, position)
SELECT key_id, metric, device_id, 0 FROM proj_history;
