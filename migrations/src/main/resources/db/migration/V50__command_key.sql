-- The command side's Ed25519 key that signs every record on podium.jobs. Made once by the first ingest instance that
-- needs it; the private key (PKCS#8) is encrypted under ingest's master key like agent secrets; agents hold only the
-- public key (X.509), which their key files carry. Outside the event store, so a rebuild keeps it.
CREATE TABLE command_key (
    key_id              TEXT PRIMARY KEY,
    public_key          BYTEA       NOT NULL,
    private_ciphertext  BYTEA       NOT NULL,
    private_nonce       BYTEA       NOT NULL,
    status              TEXT        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired')),
    created_at          TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
-- One key signs at a time, so instances starting together agree on it.
CREATE UNIQUE INDEX command_key_one_active ON command_key ((true)) WHERE status = 'active';
