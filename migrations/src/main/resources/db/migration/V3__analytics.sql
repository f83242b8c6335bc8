-- Stable, documented views for SQL users (see migrations/README.md). The analytics role reads these views only: it has
-- no rights on the tables behind them, so agent_key and its secrets stay out of reach.
CREATE SCHEMA analytics;

CREATE VIEW analytics.results AS
SELECT r.run_id,
       r.benchmark,
       k.canonical                    AS comparison_key,
       r.key_id,
       r.device_id,
       r.device_count,
       r.agent_id,
       r.host->>'hostname'            AS hostname,
       r.workload->'parameters'       AS parameters,
       r.software->>'framework_version' AS framework_version,
       r.started_at,
       r.finished_at,
       r.status,
       r.valid,
       r.retracted,
       m.metric,
       m.unit,
       m.direction,
       m.scope,
       m.n,
       m.mean,
       m.median,
       m.stdev,
       m.min,
       m.max,
       m.ci95_low,
       m.ci95_high,
       m.cv,
       m.raw_values
FROM proj_run r
JOIN proj_result m ON m.run_id = r.run_id
LEFT JOIN proj_comparison_key k ON k.key_id = r.key_id;
COMMENT ON VIEW analytics.results IS 'One row per metric of a completed run: the flat results table.';

CREATE VIEW analytics.published_claims AS
SELECT source, claim_id, is_ratio, device_id, device_label, device_count, benchmark, key_id, metric, unit, direction,
       value_kind, value, low, high, claim->>'quote' AS quote, claim->>'source_url' AS source_url
FROM proj_published_claim;
COMMENT ON VIEW analytics.published_claims IS 'Published figures and claims as imported, with their quotes.';

CREATE VIEW analytics.leaderboard AS
SELECT l.*, k.canonical AS comparison_key
FROM proj_leaderboard_row l
LEFT JOIN proj_comparison_key k ON k.key_id = l.key_id;
COMMENT ON VIEW analytics.leaderboard IS 'Per comparison key, metric, device and source: runs, n, mean, CI95, best, CV.';

CREATE VIEW analytics.runs AS
SELECT run_id, agent_id, job_id, status, retracted, benchmark, key_id, device_id, device_count, host->>'hostname' AS hostname,
       started_at, finished_at, duration_seconds, valid, validity, failure
FROM proj_run;
COMMENT ON VIEW analytics.runs IS 'One row per run, whatever its outcome.';

CREATE VIEW analytics.agents AS
SELECT agent_id, pool, agent_version, hostname, boot_id, accelerators, registered_at
FROM proj_agent;
COMMENT ON VIEW analytics.agents IS 'One row per agent, from its latest AgentRegistered.';

CREATE VIEW analytics.events AS
SELECT position, event_id, stream_id, seq, type, schema_version, writer, occurred_at, recorded_at, payload
FROM event_store;
COMMENT ON VIEW analytics.events IS 'The event store in position order, without Kafka coordinates or key ids.';

-- Roles are cluster-wide while databases are not: create the role once, grant per database. Test runs migrate many
-- databases at once, so a concurrent creation of the role is tolerated.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'podium_analyst') THEN
        CREATE ROLE podium_analyst NOLOGIN;
    END IF;
EXCEPTION
    WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;
GRANT USAGE ON SCHEMA analytics TO podium_analyst;
GRANT SELECT ON ALL TABLES IN SCHEMA analytics TO podium_analyst;
-- Views added by later migrations are readable too.
ALTER DEFAULT PRIVILEGES IN SCHEMA analytics GRANT SELECT ON TABLES TO podium_analyst;
REVOKE ALL ON SCHEMA public FROM podium_analyst;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM podium_analyst;
