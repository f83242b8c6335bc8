-- The run page shows each accelerator's enforced power limit beside its default, read from the devices ingest keeps
-- for not_throttled; the spans stay ingest's own, since the check's detail already says which reason, when and for how
-- long.
GRANT SELECT ON proj_run_throttle_head TO podium_query;
