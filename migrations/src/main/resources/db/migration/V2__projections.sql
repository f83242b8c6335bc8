-- Read models. Every table here is a function of event_store in position order: TRUNCATE and replay gives the same
-- rows. Aggregates are recomputed for the keys a batch touched, never incremented.

CREATE TABLE proj_agent (
    agent_id       TEXT PRIMARY KEY,
    pool           TEXT,
    agent_version  TEXT,
    hostname       TEXT,
    boot_id        UUID,
    accelerators   JSONB,
    registered_at  TIMESTAMPTZ NOT NULL,
    last_position  BIGINT      NOT NULL
);

CREATE TABLE proj_host (
    host_key       TEXT PRIMARY KEY,   -- machine id when known, else hostname
    hostname       TEXT NOT NULL,
    machine_id     TEXT,
    cpu_model      TEXT,
    sockets        INT,
    cores          INT,
    threads        INT,
    memory_bytes   BIGINT,
    os             TEXT,
    kernel         TEXT,
    last_position  BIGINT NOT NULL
);

CREATE TABLE proj_device (
    device_id      TEXT PRIMARY KEY,   -- canonical id from the alias table in events
    vendor         TEXT,
    label          TEXT,
    last_position  BIGINT NOT NULL
);

CREATE TABLE proj_benchmark (
    benchmark      TEXT PRIMARY KEY,
    last_position  BIGINT NOT NULL
);

CREATE TABLE proj_comparison_key (
    key_id         TEXT PRIMARY KEY,   -- ComparisonKey.id()
    benchmark      TEXT  NOT NULL,
    canonical      TEXT  NOT NULL,
    dimensions     JSONB NOT NULL
);
CREATE INDEX proj_comparison_key_benchmark_idx ON proj_comparison_key (benchmark);

CREATE TABLE proj_run (
    run_id            UUID PRIMARY KEY,
    stream_id         TEXT    NOT NULL,
    agent_id          TEXT,
    job_id            UUID,
    lease_epoch       INT,
    -- claimed (JobClaimed seen, no RunStarted yet), running, completed, failed, cancelled; superseded when a later lease
    -- epoch took the job over
    status            TEXT    NOT NULL,
    retracted         BOOLEAN NOT NULL DEFAULT FALSE,
    benchmark         TEXT,
    key_id            TEXT,
    device_id         TEXT,
    device_count      INT,
    host_key          TEXT,
    workload          JSONB,
    software          JSONB,
    accelerators      JSONB,
    host              JSONB,
    started_at        TIMESTAMPTZ,        -- RunStarted.occurred_at: the time axis of history
    finished_at       TIMESTAMPTZ,
    duration_seconds  DOUBLE PRECISION,
    validity          JSONB,
    valid             BOOLEAN,
    failure           JSONB,
    started_position  BIGINT,
    last_position     BIGINT  NOT NULL
);
CREATE INDEX proj_run_key_idx ON proj_run (key_id, device_id);
CREATE INDEX proj_run_started_idx ON proj_run (started_at DESC);
CREATE INDEX proj_run_agent_idx ON proj_run (agent_id);

-- One row per metric of a completed run: raw per-repetition values and their statistics.
CREATE TABLE proj_result (
    run_id      UUID   NOT NULL REFERENCES proj_run (run_id) ON DELETE CASCADE,
    metric      TEXT   NOT NULL,
    unit        TEXT   NOT NULL,
    direction   TEXT   NOT NULL,
    scope       TEXT   NOT NULL,
    warmup_excluded BOOLEAN NOT NULL,
    key_id      TEXT,
    device_id   TEXT,
    n           INT,
    mean        DOUBLE PRECISION,
    median      DOUBLE PRECISION,
    stdev       DOUBLE PRECISION,
    min         DOUBLE PRECISION,
    max         DOUBLE PRECISION,
    ci95_low    DOUBLE PRECISION,
    ci95_high   DOUBLE PRECISION,
    cv          DOUBLE PRECISION,
    raw_values  DOUBLE PRECISION[],
    PRIMARY KEY (run_id, metric)
);
CREATE INDEX proj_result_key_idx ON proj_result (key_id, metric, device_id);

-- Sampled series of a run (step throughput, utilisation, memory, power), one row per MetricSampled event.
CREATE TABLE proj_run_series (
    run_id     UUID   NOT NULL,
    series     TEXT   NOT NULL,
    position   BIGINT NOT NULL,
    unit       TEXT   NOT NULL,
    samples    JSONB  NOT NULL,
    PRIMARY KEY (run_id, series, position)
);

-- Published figures and claims, as imported.
CREATE TABLE proj_published_claim (
    source       TEXT NOT NULL,
    claim_id     TEXT NOT NULL,
    is_ratio     BOOLEAN NOT NULL,
    device_id    TEXT,
    device_label TEXT,
    device_count INT,
    benchmark    TEXT,
    key_id       TEXT,
    metric       TEXT NOT NULL,
    unit         TEXT NOT NULL,
    direction    TEXT NOT NULL,
    value_kind   TEXT NOT NULL,   -- value, range, bound, n/a
    value        DOUBLE PRECISION,
    low          DOUBLE PRECISION,
    high         DOUBLE PRECISION,
    claim        JSONB NOT NULL,  -- the whole PublishedClaim
    position     BIGINT NOT NULL,
    PRIMARY KEY (source, claim_id)
);
CREATE INDEX proj_published_claim_key_idx ON proj_published_claim (key_id, metric);

-- One row per comparison key, metric, device and source (measured or published), recomputed from proj_result and
-- proj_published_claim for the keys a batch touched. Only valid, not retracted, not superseded runs count.
CREATE TABLE proj_leaderboard_row (
    key_id      TEXT NOT NULL,
    metric      TEXT NOT NULL,
    device_id   TEXT NOT NULL,
    source      TEXT NOT NULL CHECK (source IN ('measured', 'published')),
    benchmark   TEXT NOT NULL,
    unit        TEXT NOT NULL,
    direction   TEXT NOT NULL,
    runs        INT  NOT NULL,
    n           INT  NOT NULL,
    mean        DOUBLE PRECISION,
    ci95_low    DOUBLE PRECISION,
    ci95_high   DOUBLE PRECISION,
    best        DOUBLE PRECISION,
    cv          DOUBLE PRECISION,
    last_run_at TIMESTAMPTZ,
    PRIMARY KEY (key_id, metric, device_id, source)
);
CREATE INDEX proj_leaderboard_row_benchmark_idx ON proj_leaderboard_row (benchmark, metric);

-- Job grants (JobAssigned) by lease epoch: a run of an earlier epoch of the same job is superseded, whichever of its
-- events or the later grant arrives first.
CREATE TABLE proj_job_assignment (
    job_id         UUID   NOT NULL,
    lease_epoch    INT    NOT NULL,
    run_id         UUID   NOT NULL,
    agent_id       TEXT   NOT NULL,
    position       BIGINT NOT NULL,
    PRIMARY KEY (job_id, lease_epoch)
);
CREATE INDEX proj_run_job_idx ON proj_run (job_id, lease_epoch);
