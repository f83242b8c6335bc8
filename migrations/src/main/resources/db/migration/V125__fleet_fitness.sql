-- Fleet fitness (issue 40, item 6), kept by ingest from proj_run, proj_result and the devices a run named (V118).
-- A unit is what one run measured on: a host, and its one accelerator's identity when the run named exactly one device
-- ('' when it used several, or named none). pool is '' when the agent has none.
-- A run counts from its RunStarted (its host) on.
-- Per run, what it adds to its unit and cells, so that a batch adds only the difference when a run ends, turns out
-- invalid or is retracted: its outcome and, when it counted, its metrics' means under its comparison key.
CREATE TABLE proj_fleet_run (
    run_id           uuid PRIMARY KEY,
    pool             text NOT NULL,
    host_key         text NOT NULL,
    device           text NOT NULL,
    key_id           text,
    outcome          text NOT NULL,
    means            jsonb
);

-- Per pool and unit: runs by outcome, and the versions its latest run reported (for the audit against the minimum
-- versions table in events).
CREATE TABLE proj_fleet_unit (
    pool              text NOT NULL,
    host_key          text NOT NULL,
    device            text NOT NULL,
    hostname          text,
    agent_id          text,
    device_id         text,
    driver            text,
    runtime           text,
    firmware          text,
    versions_position bigint NOT NULL DEFAULT 0,
    runs              bigint NOT NULL DEFAULT 0,
    succeeded         bigint NOT NULL DEFAULT 0,
    invalid           bigint NOT NULL DEFAULT 0,
    failed            bigint NOT NULL DEFAULT 0,
    cancelled         bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (pool, host_key, device)
);

-- Per pool, comparison key, metric and unit: the counted runs' means (n and their sum, exact in numeric, so that any
-- order of adding and taking back gives the same row), and where the unit's mean lies in
-- its pool's distribution of units for the same key and metric: the robust z-score and the evidence (pool median, MAD,
-- mean absolute deviation, number of units), rewritten for a group whenever a batch changes one of its cells.
CREATE TABLE proj_fleet_cell (
    pool      text NOT NULL,
    key_id    text NOT NULL,
    metric    text NOT NULL,
    host_key  text NOT NULL,
    device    text NOT NULL,
    hostname  text,
    agent_id  text,
    unit      text,
    runs      bigint NOT NULL,
    sum_mean  numeric NOT NULL,
    median    double precision,
    mad       double precision,
    mean_ad   double precision,
    group_n   integer,
    z         double precision,
    flagged   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (pool, key_id, metric, host_key, device)
);
CREATE INDEX proj_fleet_cell_flagged_idx ON proj_fleet_cell (pool, key_id, metric) WHERE flagged;
CREATE INDEX proj_fleet_cell_agent_flagged_idx ON proj_fleet_cell (agent_id, pool) WHERE flagged;

-- A campaign may keep its jobs from hosts the fleet view flags.
ALTER TABLE campaign ADD COLUMN exclude_flagged boolean NOT NULL DEFAULT false;

GRANT SELECT ON proj_fleet_unit, proj_fleet_cell TO podium_query;
