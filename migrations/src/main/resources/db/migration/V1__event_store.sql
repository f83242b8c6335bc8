-- The event store: the only source of truth. One row per accepted event, never updated or deleted.
CREATE TABLE event_store (
    position        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id        UUID        NOT NULL,
    stream_id       TEXT        NOT NULL,
    seq             BIGINT      NOT NULL CHECK (seq >= 1),
    type            TEXT        NOT NULL,
    schema_version  INT         NOT NULL,
    -- The agent id for agent streams, 'command:<admin token name>' for command-side streams.
    writer          TEXT        NOT NULL,
    key_id          TEXT,
    occurred_at     TIMESTAMPTZ NOT NULL,
    recorded_at     TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    kafka_topic     TEXT,
    kafka_partition INT,
    kafka_offset    BIGINT,
    payload         JSONB       NOT NULL,
    -- SHA-256 (hex) of the record bytes: a redelivery has the same hash, a conflicting record another.
    payload_hash    TEXT        NOT NULL,
    CONSTRAINT event_store_event_id_key UNIQUE (event_id),
    CONSTRAINT event_store_stream_seq_key UNIQUE (stream_id, seq)
);
CREATE INDEX event_store_type_idx ON event_store (type, position);

-- Records ingest refused, counted once per source offset. The bytes are kept (up to 1 MiB) for redrive.
CREATE TABLE rejected_event (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    topic           TEXT        NOT NULL,
    kafka_partition INT         NOT NULL,
    kafka_offset    BIGINT      NOT NULL,
    reason          TEXT        NOT NULL,
    key_id          TEXT,
    event_id        TEXT,
    stream_id       TEXT,
    record          BYTEA,
    record_bytes    INT         NOT NULL,
    rejected_at     TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    redriven_at     TIMESTAMPTZ,
    CONSTRAINT rejected_event_source_key UNIQUE (topic, kafka_partition, kafka_offset)
);

-- Agent signing keys. The secret is encrypted (AES-GCM under ingest's master key), never stored in clear, outside the
-- event store so that it survives a rebuild, and not readable by the analytics role.
CREATE TABLE agent_key (
    key_id            TEXT PRIMARY KEY,
    agent_id          TEXT        NOT NULL,
    secret_ciphertext BYTEA       NOT NULL,
    secret_nonce      BYTEA       NOT NULL,
    -- active: signs and verifies; retired: replaced by a rotation, still verifies what it signed before;
    -- revoked: verifies nothing.
    status            TEXT        NOT NULL CHECK (status IN ('active', 'retired', 'revoked')),
    issued_at         TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    issued_by         TEXT        NOT NULL,
    retired_at        TIMESTAMPTZ,
    revoked_at        TIMESTAMPTZ,
    revoked_by        TEXT
);
CREATE INDEX agent_key_agent_idx ON agent_key (agent_id);

-- Fleet status from heartbeats. Not a projection of events: online or offline is computed from last_heartbeat_at at
-- query time.
CREATE TABLE agent_status (
    agent_id          TEXT PRIMARY KEY,
    boot_id           UUID,
    pool              TEXT,
    state             TEXT,
    current_job_id    UUID,
    current_run_id    UUID,
    lease_epoch       INT,
    device_id         TEXT,
    hostname          TEXT,
    sensors           JSONB,
    last_heartbeat_at TIMESTAMPTZ NOT NULL
);

-- Command-side events waiting to be relayed to Kafka; a relay publishes them and marks them sent.
CREATE TABLE outbox (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    topic      TEXT        NOT NULL,
    record_key TEXT        NOT NULL,
    value      BYTEA       NOT NULL,
    headers    JSONB       NOT NULL DEFAULT '{}'::jsonb,
    created_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    sent_at    TIMESTAMPTZ
);
CREATE INDEX outbox_unsent_idx ON outbox (id) WHERE sent_at IS NULL;
