-- Bounded work per run and per agent. A verified record over a run's budget or an agent's quota is held: kept whole in
-- rejected_event, spared by retention until it is redriven, and the later records of a run whose start is held are held
-- too (looked up by stream).
ALTER TABLE rejected_event ADD COLUMN held BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX rejected_event_held_stream_idx ON rejected_event (stream_id) WHERE held;
CREATE INDEX rejected_event_held_key_idx ON rejected_event (key_id, id) WHERE held;

-- Who first named each benchmark, comparison key and device id: the agent whose quota of new catalogue entries it
-- counts against (null for published claims and for what was named before this table existed).
CREATE TABLE proj_catalog_origin (
    kind     TEXT   NOT NULL CHECK (kind IN ('benchmark', 'key', 'device')),
    name     TEXT   NOT NULL,
    agent_id TEXT,
    position BIGINT NOT NULL,
    PRIMARY KEY (kind, name)
);
CREATE INDEX proj_catalog_origin_agent_idx ON proj_catalog_origin (agent_id, kind);

INSERT INTO proj_catalog_origin (kind, name, agent_id, position)
SELECT 'benchmark', benchmark, NULL, last_position FROM proj_benchmark
UNION ALL SELECT 'key', key_id, NULL, 0 FROM proj_comparison_key
UNION ALL SELECT 'device', device_id, NULL, last_position FROM proj_device;
