-- Secret campaign environment values (issue 19): kept only here, AES-GCM under ingest's master key with the campaign id
-- and name as associated data, and sent to agents only sealed inside their grant (JobAssigned.secrets). Command state
-- outside the event store, like agent_key: it survives a rebuild and no read role can see it.
CREATE TABLE campaign_secret (
    campaign_id UUID  NOT NULL REFERENCES campaign (campaign_id),
    name        TEXT  NOT NULL,
    ciphertext  BYTEA NOT NULL,
    nonce       BYTEA NOT NULL,
    PRIMARY KEY (campaign_id, name)
);

-- analytics.events showed campaign and job environments in clear: values are masked, names stay.
CREATE OR REPLACE VIEW analytics.events AS
SELECT position, event_id, stream_id, seq, type, schema_version, writer, occurred_at, recorded_at,
       CASE WHEN jsonb_typeof(payload #> '{spec,environment}') = 'object'
            THEN jsonb_set(payload, '{spec,environment}',
                           coalesce((SELECT jsonb_object_agg(k, '***') FROM jsonb_object_keys(payload #> '{spec,environment}') k),
                                    '{}'::jsonb))
            ELSE payload END AS payload
FROM event_store;
COMMENT ON VIEW analytics.events IS 'The event store in position order, without Kafka coordinates or key ids; job environment values masked.';

-- query-service's own role: it can read what pages show and nothing else, and write nothing. Cluster-wide like
-- podium_analyst, so created once and granted per database. No password here: a deployment that authenticates by
-- password sets it (docker-compose creates the role with one before migrating).
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'podium_query') THEN
        CREATE ROLE podium_query LOGIN;
    END IF;
EXCEPTION
    WHEN duplicate_object OR unique_violation THEN NULL;
END
$$;
GRANT USAGE ON SCHEMA public, analytics TO podium_query;
GRANT SELECT ON ALL TABLES IN SCHEMA public, analytics TO podium_query;
-- Tables of later migrations (and the shadow tables of a rebuild) are readable too; the secrets never are.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO podium_query;
REVOKE ALL ON agent_key, campaign_secret, outbox FROM podium_query;
