-- The command side's state for fleet benchmarking (issue 8): campaigns, jobs and their leases, and the grants.
-- Command state, not read models: a rebuild leaves these tables alone (like agent_key), since what the command side decided
-- is already in the event store as CampaignCreated, JobRequested, JobAssigned, JobLeaseExpired and JobCancelled.

CREATE TABLE campaign (
    campaign_id     UUID PRIMARY KEY,
    name            TEXT        NOT NULL,
    spec            JSONB       NOT NULL,          -- the JobSpec as submitted, matrix not expanded (snake_case)
    pools           TEXT[]      NOT NULL,
    schedule        TEXT,                          -- as submitted: nightly, hourly, weekly or an ISO-8601 duration
    period_seconds  BIGINT CHECK (period_seconds > 0),
    last_issued_at  TIMESTAMPTZ NOT NULL,
    actor           TEXT        NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX campaign_due_idx ON campaign (last_issued_at) WHERE period_seconds IS NOT NULL;

-- One row per job (one job = one pool × one point of the matrix = one counted run). state: requested (offered under
-- lease_epoch, nobody granted yet), assigned (run_id of agent_id holds the lease until lease_expires_at), done, failed,
-- cancelled. seq is the last seq written on the job/<job_id> stream; only the command side writes it, under this row's lock.
CREATE TABLE job (
    job_id           UUID PRIMARY KEY,
    campaign_id      UUID REFERENCES campaign (campaign_id),
    issue            INT         NOT NULL DEFAULT 1,   -- which issuing of its campaign (scheduled campaigns repeat)
    pool             TEXT        NOT NULL,
    spec             JSONB       NOT NULL,             -- the job's JobSpec, matrix expanded into parameters
    state            TEXT        NOT NULL CHECK (state IN ('requested', 'assigned', 'done', 'failed', 'cancelled')),
    lease_epoch      INT         NOT NULL DEFAULT 1 CHECK (lease_epoch >= 1),
    run_id           UUID,
    agent_id         TEXT,
    lease_expires_at TIMESTAMPTZ,
    seq              BIGINT      NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX job_campaign_idx ON job (campaign_id);
CREATE INDEX job_lease_idx ON job (lease_expires_at) WHERE state = 'assigned';
CREATE INDEX job_run_idx ON job (run_id) WHERE run_id IS NOT NULL;

-- The grants: the first claim of a job's epoch wins, decided by this primary key.
CREATE TABLE job_grant (
    job_id      UUID        NOT NULL REFERENCES job (job_id),
    lease_epoch INT         NOT NULL,
    run_id      UUID        NOT NULL UNIQUE,
    agent_id    TEXT        NOT NULL,
    granted_at  TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (job_id, lease_epoch)
);
