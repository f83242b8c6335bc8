-- A run's percentiles of the per-request or per-step values behind a metric (its repetitions pooled), as the agent
-- computed them from values it does not send: the count, each percentile, and its 95% order-statistic interval, a
-- side null where no rank of that count reaches it or where an older agent sent no interval (the count tells which).
-- Null throughout where the workload gave no such values. proj_result is already on podium_query's allowlist (V112).
ALTER TABLE proj_result
    ADD COLUMN requests INT,
    ADD COLUMN p50      DOUBLE PRECISION,
    ADD COLUMN p50_low  DOUBLE PRECISION,
    ADD COLUMN p50_high DOUBLE PRECISION,
    ADD COLUMN p90      DOUBLE PRECISION,
    ADD COLUMN p90_low  DOUBLE PRECISION,
    ADD COLUMN p90_high DOUBLE PRECISION,
    ADD COLUMN p99      DOUBLE PRECISION,
    ADD COLUMN p99_low  DOUBLE PRECISION,
    ADD COLUMN p99_high DOUBLE PRECISION;
