-- Each agent key has a Kafka identity of its own (SCRAM user named by the key id, its ACLs and produce quota), issued and
-- revoked with the key. Its password goes into the key file once, at issue; ingest keeps it sealed under the master key
-- (AES-256-GCM, associated data "kafka/" and the key id) so that its reconciler can create the identity later when the
-- broker was unreachable at issue time. Keys issued before this have none: they are rotated to get one.
ALTER TABLE agent_key
    ADD COLUMN kafka_password_ciphertext BYTEA,
    ADD COLUMN kafka_password_nonce      BYTEA,
    ADD CONSTRAINT agent_key_kafka_password_whole
        CHECK ((kafka_password_ciphertext IS NULL) = (kafka_password_nonce IS NULL));
