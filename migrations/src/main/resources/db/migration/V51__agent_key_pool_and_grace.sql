-- Keys, pools, heartbeats (issue 19, item 3).
-- An agent's pool is bound to its key when the key is issued; a claim is granted only for that pool. Keys from before
-- have none, so their agents' claims are refused until a rotation binds one.
ALTER TABLE agent_key ADD COLUMN pool TEXT;

-- At most one active key per agent. Should an agent hold two already, the older ones retire now (their grace period
-- starting now) so that the constraint can hold.
UPDATE agent_key k SET status = 'retired', retired_at = clock_timestamp()
WHERE status = 'active'
  AND EXISTS (SELECT 1 FROM agent_key n WHERE n.agent_id = k.agent_id AND n.status = 'active'
              AND (n.issued_at, n.key_id) > (k.issued_at, k.key_id));
CREATE UNIQUE INDEX agent_key_one_active ON agent_key (agent_id) WHERE status = 'active';

-- A retired key verifies only records the broker appended (or ingest first read) before retired_at + the configured
-- grace period; a key retired before this migration starts its grace now.
UPDATE agent_key SET retired_at = clock_timestamp() WHERE status = 'retired' AND retired_at IS NULL;

-- Heartbeats carry the writer's boot and a sequence within it; one not newer than the last one stored renews nothing.
ALTER TABLE agent_status ADD COLUMN heartbeat_seq BIGINT, ADD COLUMN heartbeat_sent_at TIMESTAMPTZ;
