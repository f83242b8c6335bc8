-- Adaptive runs (issue 39 item 3): a campaign of two sides whose spec carries adaptive {max, target_half_width_pct}
-- asks for one more run at a time, for the side whose variance dominates, until the ratio's 95% interval is within the
-- target or each side has run max jobs. Command state beside job and campaign (a rebuild leaves it alone): the jobs it
-- asked for are JobRequested events already; these rows are what the next decision reads, kept as sums so that each
-- decision costs the same however many runs came before. The campaign and claim pages read them.
CREATE TABLE campaign_adaptive (
    campaign_id           UUID PRIMARY KEY REFERENCES campaign (campaign_id),
    metric                TEXT             NOT NULL,
    max_runs              INT              NOT NULL CHECK (max_runs BETWEEN 3 AND 50),
    target_half_width_pct DOUBLE PRECISION NOT NULL CHECK (target_half_width_pct > 0),
    state                 TEXT             NOT NULL DEFAULT 'running'
                              CHECK (state IN ('running', 'target_met', 'budget_spent')),
    half_width_pct        DOUBLE PRECISION,          -- the ratio's interval at the last decision, once both sides have 3
    jobs_requested        INT              NOT NULL, -- both sides, the first jobs included
    runs_counted          INT              NOT NULL DEFAULT 0,
    updated_at            TIMESTAMPTZ      NOT NULL DEFAULT clock_timestamp()
);

-- side 0 and 1 in the order the campaign made its first jobs (pools, then matrix points); a job belongs to the side of
-- its pool and parameters. runs, sum_log and sum_log_squares are over the counted runs' means of the metric.
CREATE TABLE campaign_adaptive_side (
    campaign_id     UUID             NOT NULL REFERENCES campaign_adaptive (campaign_id),
    side            SMALLINT         NOT NULL CHECK (side IN (0, 1)),
    pool            TEXT             NOT NULL,
    parameters      JSONB            NOT NULL,
    jobs            INT              NOT NULL,
    runs            INT              NOT NULL DEFAULT 0,
    sum_log         DOUBLE PRECISION NOT NULL DEFAULT 0,
    sum_log_squares DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (campaign_id, side)
);

GRANT SELECT ON campaign_adaptive, campaign_adaptive_side TO podium_query;
