-- query-service's role reads only the tables its pages read, named here: a table a later migration adds (or one an
-- earlier one added for ingest alone, such as rejected_event, the event store or the outbox) is closed to it until a
-- migration grants it. A rebuild copies each read-model table's grants onto its shadow copy, so the list survives one.
-- flyway_schema_history is on it: query-service checks at start that the schema is the one it was built for. The
-- role's settings live here too, per database rather than for the whole cluster: V95's statement timeout moves
-- from the role to the role in this database.
REVOKE SELECT ON ALL TABLES IN SCHEMA public FROM podium_query;
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT ON TABLES FROM podium_query;
GRANT SELECT ON
    agent_status,
    campaign,
    claim_reproduction,
    flyway_schema_history,
    history_state,
    job,
    job_grant,
    proj_agent,
    proj_benchmark,
    proj_cell_run,
    proj_change_point,
    proj_comparison_cell,
    proj_comparison_key,
    proj_device,
    proj_energy_cell,
    proj_hidden_catalog,
    proj_history,
    proj_leaderboard_all_runs_row,
    proj_leaderboard_row,
    proj_leaderboard_version_row,
    proj_metric_key,
    proj_published_claim,
    proj_rank_benchmark,
    proj_rank_device,
    proj_rank_key,
    proj_result,
    proj_retraction,
    proj_run,
    proj_run_event,
    proj_run_event_count,
    proj_run_series_head,
    proj_run_series_point
TO podium_query;

ALTER ROLE podium_query RESET statement_timeout;
DO $$
BEGIN
    EXECUTE format('ALTER ROLE podium_query IN DATABASE %I SET statement_timeout = %L', current_database(), '5s');
END
$$;
