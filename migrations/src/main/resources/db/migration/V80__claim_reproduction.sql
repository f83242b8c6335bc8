-- A campaign that measures a published ratio claim on the user's own fleet (POST /admin/claims/{source}/{claim}/reproduce):
-- what the claim varies, the two values (or, for a device against another, the two pools: the subject's first), and the
-- metric. The claim's page reads it with the campaign's runs to set the measured ratio beside the published one.
CREATE TABLE claim_reproduction (
    campaign_id     UUID PRIMARY KEY REFERENCES campaign (campaign_id),
    source          TEXT        NOT NULL,
    claim_id        TEXT        NOT NULL,
    dimension       TEXT        NOT NULL,
    parameter       TEXT,
    baseline_value  TEXT,
    compared_value  TEXT,
    baseline_label  TEXT        NOT NULL,
    compared_label  TEXT        NOT NULL,
    metric          TEXT        NOT NULL,
    pools           TEXT[]      NOT NULL,
    actor           TEXT        NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX claim_reproduction_claim_idx ON claim_reproduction (source, claim_id, created_at DESC);
