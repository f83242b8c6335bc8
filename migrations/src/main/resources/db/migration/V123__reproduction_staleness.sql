-- Whether a claim's reproduction still speaks for its pools' software (issue 39, item 7). One row per reproduction and
-- pool: the basis (framework, driver and runtime of the first granted run of the reproduction's campaign in that pool)
-- and, once a later granted run in that pool, of the same benchmark and another campaign, reports another version, the
-- first difference, the run that showed it and since when. Ingest writes it in the transaction of the RunStarted that
-- reveals it; a stale row is never touched again, so a run reads only the fresh rows of its pool and benchmark.
CREATE TABLE proj_reproduction_staleness (
    campaign_id       UUID        NOT NULL,
    pool              TEXT        NOT NULL,
    benchmark         TEXT        NOT NULL,
    framework         TEXT,
    framework_version TEXT,
    driver            TEXT,
    runtime           TEXT,
    basis_run_id      UUID        NOT NULL,
    stale_component   TEXT CHECK (stale_component IN ('framework', 'driver', 'runtime')),
    stale_from        TEXT,
    stale_to          TEXT,
    stale_since       TIMESTAMPTZ,
    stale_run_id      UUID,
    last_position     BIGINT      NOT NULL,
    PRIMARY KEY (campaign_id, pool)
);
CREATE INDEX proj_reproduction_staleness_fresh_idx ON proj_reproduction_staleness (pool, benchmark)
    WHERE stale_since IS NULL;
GRANT SELECT ON proj_reproduction_staleness TO podium_query;

-- A reproduction made again (POST /admin/reproductions/{id}/rerun, or the stale-rerun schedule) names the one it renews,
-- so the schedule renews each stale reproduction once (its row is locked while it decides).
ALTER TABLE claim_reproduction ADD COLUMN rerun_of UUID REFERENCES claim_reproduction (campaign_id);
CREATE INDEX claim_reproduction_rerun_of_idx ON claim_reproduction (rerun_of) WHERE rerun_of IS NOT NULL;
