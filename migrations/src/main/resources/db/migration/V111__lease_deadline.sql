-- Leases that end (issue 38). lease_deadline is set at each grant from the job's spec: grant time + timeout_seconds ×
-- max(1, repetitions) + one lease duration (ingest's setting) for setup and reporting. A heartbeat renews a lease to
-- now + lease duration but never past the deadline, so a run still beating at its deadline expires like a silent one.
ALTER TABLE job ADD COLUMN lease_deadline TIMESTAMPTZ;

-- Grants made before this migration had no deadline: they get one from their grant time, with an hour of slack since
-- the lease duration is ingest's setting, not the database's.
UPDATE job j SET lease_deadline = g.granted_at
        + make_interval(secs => (j.spec->>'timeout_seconds')::float8 * greatest(1, (j.spec->>'repetitions')::int))
        + interval '1 hour'
FROM job_grant g
WHERE j.state = 'assigned' AND g.job_id = j.job_id AND g.lease_epoch = j.lease_epoch;

-- The grants an agent holds are counted at each of its claims (podium.ingest.jobs.max-grants-per-agent).
CREATE INDEX job_agent_assigned_idx ON job (agent_id) WHERE state = 'assigned';
