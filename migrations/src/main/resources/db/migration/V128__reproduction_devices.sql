-- The accelerators a run a reproduction was measured at, when a user's pool is smaller than the claim's configuration;
-- null: the claim's own number.
ALTER TABLE claim_reproduction ADD COLUMN devices INT CHECK (devices BETWEEN 1 AND 999);
