-- Operator commands (issue 18, item 4): the retraction a run page shows, and what a redrive of a refused record needs.

-- One row per retracted run, from its first ResultRetracted (a second retraction changes nothing). A read model: a
-- rebuild empties and replays it. proj_run.retracted stays the flag that leaderboards and comparisons filter on.
CREATE TABLE proj_retraction (
    run_id       UUID PRIMARY KEY,
    reason       TEXT        NOT NULL,
    actor        TEXT        NOT NULL,
    retracted_at TIMESTAMPTZ NOT NULL,   -- the event's occurred_at, the command side's clock
    position     BIGINT      NOT NULL
);

-- A redrive verifies a refused record again, so the signature header is kept beside its key id. What the last redrive
-- of a row did: stored (the record is now an event), duplicate (it already was), or rejected (with redrive_reason).
ALTER TABLE rejected_event
    ADD COLUMN signature       TEXT,
    ADD COLUMN redrive_outcome TEXT CHECK (redrive_outcome IN ('stored', 'duplicate', 'rejected')),
    ADD COLUMN redrive_reason  TEXT;

-- The operator's list filters by topic and pages by id.
CREATE INDEX rejected_event_topic_idx ON rejected_event (topic, id);
