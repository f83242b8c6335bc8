-- New regressions to POST to the configured webhook, one row each, queued by the change-point updater in the
-- transaction that found them and sent by ingest's command side at least once. id is stable (derived from the history
-- and the first run at the new level), so a receiver deduplicates redeliveries on it, and a step that goes and comes
-- back is not queued again. Not a read model: a rebuild neither empties it nor queues the steps it recomputes.
CREATE TABLE regression_delivery (
    id              UUID        PRIMARY KEY,
    payload         JSONB       NOT NULL,
    queued_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    attempts        INT         NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    delivered_at    TIMESTAMPTZ,
    last_error      TEXT
);
CREATE INDEX regression_delivery_due_idx ON regression_delivery (next_attempt_at) WHERE delivered_at IS NULL;
