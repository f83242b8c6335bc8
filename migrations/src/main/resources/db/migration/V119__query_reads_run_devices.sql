-- The comparison's configuration diff shows each side's enforced power limit, read from the devices a run's RunStarted
-- named (V118).
GRANT SELECT ON proj_run_throttle_head TO podium_query;
