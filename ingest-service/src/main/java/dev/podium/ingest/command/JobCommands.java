package dev.podium.ingest.command;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.secret.JobSecrets;
import dev.podium.events.secret.SealedSecrets;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.store.AgentKey;
import dev.podium.ingest.store.AgentKeyStore;
import dev.podium.ingest.store.CampaignSecretStore;
import dev.podium.ingest.store.Outbox;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * What the ingest batch decides about jobs, in the batch's transaction on its connection (JDBC, so that a lost race is
 * an {@code ON CONFLICT DO NOTHING} and never aborts the batch): the grant of a job's first claim per epoch
 * ({@code job_grant}'s primary key decides), the end of a job when the run holding its lease ends, and the leases that
 * heartbeats renew. The {@code job} row is the job's state and the lock that orders writes to its stream. What admins and
 * the timers decide is {@link FleetCommands}.
 */
@ApplicationScoped
public class JobCommands {

    private static final Logger LOG = Logger.getLogger(JobCommands.class);

    /** Writer of the grants the command side decides by itself. */
    public static final String GRANT_WRITER = "command:grant";

    /** The job row a claim asks for, read under its lock. */
    private record Claimed(int epoch, String pool, UUID campaignId) {}

    /** What a grant carries of its campaign's secrets: null when the campaign has none. */
    private record Secrets(SealedSecrets sealed) {}

    private final CommandLog log;
    private final Outbox outbox;
    private final AgentKeyStore keys;
    private final IngestConfig config;
    private final CampaignSecretStore campaignSecrets;
    private final AdaptiveRuns adaptive;

    public JobCommands(
            CommandLog log,
            Outbox outbox,
            AgentKeyStore keys,
            IngestConfig config,
            CampaignSecretStore campaignSecrets,
            AdaptiveRuns adaptive) {
        this.log = log;
        this.outbox = outbox;
        this.keys = keys;
        this.config = config;
        this.campaignSecrets = campaignSecrets;
        this.adaptive = adaptive;
    }

    /**
     * After a batch of agent events is appended (same transaction, position order): grants the first claim of each
     * job's current epoch, and ends a job when the run holding its lease completes, fails or is cancelled; then the
     * adaptive campaigns of the jobs it ended decide whether to ask for more runs ({@link AdaptiveRuns}).
     */
    public void onRunEvents(Connection c, List<StoredEvent> fresh) throws SQLException {
        Set<UUID> assigned = lockJobsInIdOrder(c, fresh);
        lockClaimingAgents(c, fresh);
        // A run's end can only end a job assigned to it; a grant in this batch may assign one, so then every end looks.
        boolean grants = fresh.stream().anyMatch(e -> e.envelope().payload() instanceof JobClaimed);
        List<AdaptiveRuns.Finished> ended = new ArrayList<>();
        for (StoredEvent e : fresh) {
            Object p = e.envelope().payload();
            if (p instanceof JobClaimed claim) {
                grant(c, e.envelope(), claim);
            } else if (p instanceof RunCompleted r && (grants || assigned.contains(r.runId()))) {
                finish(c, r.runId(), "done", r).ifPresent(ended::add);
            } else if (p instanceof RunFailed r && (grants || assigned.contains(r.runId()))) {
                finish(c, r.runId(), "failed", null).ifPresent(ended::add);
            } else if (p instanceof RunCancelled r && (grants || assigned.contains(r.runId()))) {
                finish(c, r.runId(), "cancelled", null).ifPresent(ended::add);
            }
        }
        if (!ended.isEmpty()) {
            adaptive.onFinished(c, ended);
        }
    }

    /**
     * Locks the job rows a batch will touch, in job id order, so two instances whose batches touch the same jobs in
     * different orders wait for each other instead of deadlocking.
     */
    private static Set<UUID> lockJobsInIdOrder(Connection c, List<StoredEvent> fresh) throws SQLException {
        List<UUID> jobIds = new ArrayList<>();
        List<UUID> runIds = new ArrayList<>();
        for (StoredEvent e : fresh) {
            Object p = e.envelope().payload();
            if (p instanceof JobClaimed claim) {
                jobIds.add(claim.jobId());
            } else if (p instanceof RunCompleted r) {
                runIds.add(r.runId());
            } else if (p instanceof RunFailed r) {
                runIds.add(r.runId());
            } else if (p instanceof RunCancelled r) {
                runIds.add(r.runId());
            }
        }
        Set<UUID> assignedRuns = new HashSet<>();
        if (jobIds.isEmpty() && runIds.isEmpty()) {
            return assignedRuns;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT job_id, run_id, state FROM job WHERE job_id = ANY(?) OR (run_id = ANY(?) AND state = 'assigned')
                ORDER BY job_id FOR UPDATE""")) {
            ps.setArray(1, c.createArrayOf("uuid", jobIds.toArray()));
            ps.setArray(2, c.createArrayOf("uuid", runIds.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if ("assigned".equals(rs.getString(3)) && rs.getObject(2) != null) {
                        assignedRuns.add(rs.getObject(2, UUID.class));
                    }
                }
            }
        }
        return assignedRuns;
    }

    /**
     * Takes, for each agent that claims in this batch, a lock that another instance's batch claiming for the same agent
     * waits on, so that two batches never both count the agent under its cap. Taken after the job rows and in key order,
     * so that no two batches wait for each other in a cycle.
     */
    private static void lockClaimingAgents(Connection c, List<StoredEvent> fresh) throws SQLException {
        String[] agents = fresh.stream()
                .filter(e -> e.envelope().payload() instanceof JobClaimed)
                .map(e -> e.envelope().agentId())
                .distinct()
                .toArray(String[]::new);
        if (agents.length == 0) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT pg_advisory_xact_lock(k)
                FROM (SELECT DISTINCT hashtextextended('podium job grants of ' || a, 0) AS k FROM unnest(?) a) s
                ORDER BY k""")) {
            ps.setArray(1, c.createArrayOf("text", agents));
            ps.execute();
        }
    }

    private void grant(Connection c, Envelope env, JobClaimed claim) throws SQLException {
        String agentId = env.agentId();
        Optional<Claimed> job = lockRequested(c, claim);
        if (job.isEmpty()
                || !poolAllows(c, claim, agentId, job.get().pool())
                || runHoldsAGrant(c, claim)
                || excludedAsFlagged(c, claim, agentId, job.get())
                || atCap(c, claim, agentId)) {
            return;
        }
        Optional<Secrets> secrets = sealSecrets(c, claim, agentId, job.get());
        if (secrets.isEmpty() || !insertGrant(c, claim, job.get().epoch(), agentId)) {
            return;
        }
        assign(c, claim, agentId, job.get().epoch(), secrets.get().sealed());
    }

    /** The claimed job when it exists and is requested, its row locked; empty (logged) otherwise. */
    private static Optional<Claimed> lockRequested(Connection c, JobClaimed claim) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT state, lease_epoch, pool, campaign_id FROM job WHERE job_id = ? FOR UPDATE")) {
            ps.setObject(1, claim.jobId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    LOG.debugf("claim of run %s ignored: no job %s", claim.runId(), claim.jobId());
                    return Optional.empty();
                }
                if (!"requested".equals(rs.getString(1))) {
                    LOG.debugf("claim of run %s ignored: job %s is %s", claim.runId(), claim.jobId(), rs.getString(1));
                    return Optional.empty();
                }
                return Optional.of(new Claimed(rs.getInt(2), rs.getString(3), rs.getObject(4, UUID.class)));
            }
        }
    }

    /**
     * The pool bound to the agent's key decides, not what the claim says: a claim naming no pool, another pool, or
     * coming from a key bound to none is refused (logged).
     */
    private boolean poolAllows(Connection c, JobClaimed claim, String agentId, String pool) throws SQLException {
        Optional<String> keyPool = keys.pool(c, agentId);
        if (claim.pool() != null
                && claim.pool().equals(pool)
                && keyPool.isPresent()
                && keyPool.get().equals(pool)) {
            return true;
        }
        LOG.infof(
                "claim of run %s refused: job %s is in pool %s, the claim names %s, agent %s's key is bound to %s",
                claim.runId(), claim.jobId(), pool, claim.pool(), agentId, keyPool.orElse("no pool"));
        return false;
    }

    /**
     * One run, one job: a run stream that already holds a grant (of this job in an earlier epoch, or of another job) is
     * refused (logged), so that one run's results never stand for two jobs.
     */
    private static boolean runHoldsAGrant(Connection c, JobClaimed claim) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT job_id, lease_epoch FROM job_grant WHERE run_id = ?")) {
            ps.setObject(1, claim.runId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;
                }
                LOG.infof(
                        "claim of run %s for job %s refused: the run already holds the grant of job %s (epoch %d)",
                        claim.runId(), claim.jobId(), rs.getObject(1, UUID.class), rs.getInt(2));
                return true;
            }
        }
    }

    /**
     * True (logged) when the job's campaign excludes flagged hosts and the fleet view flags one of the agent's hosts or
     * accelerators ({@code proj_fleet_cell}, V125): its figures lie outside its pool's distribution for some key.
     */
    private static boolean excludedAsFlagged(Connection c, JobClaimed claim, String agentId, Claimed job)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT f.key_id, f.metric, f.device, f.z FROM campaign k
                JOIN proj_fleet_cell f ON f.agent_id = ? AND f.flagged
                WHERE k.campaign_id = ? AND k.exclude_flagged LIMIT 1""")) {
            ps.setString(1, agentId);
            ps.setObject(2, job.campaignId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;
                }
                LOG.infof(
                        "claim of run %s for job %s refused: its campaign excludes flagged hosts, and agent %s's %s is"
                                + " flagged (z %.2f for %s under key %s)",
                        claim.runId(),
                        claim.jobId(),
                        agentId,
                        rs.getString(3).isEmpty() ? "host" : rs.getString(3),
                        rs.getDouble(4),
                        rs.getString(2),
                        rs.getString(1));
                return true;
            }
        }
    }

    /**
     * True (logged) when the agent already holds as many jobs as {@code max-grants-per-agent} allows. Counted in this
     * batch's transaction under the agent's lock, so the batch's own earlier grants count and no other batch's race it.
     */
    private boolean atCap(Connection c, JobClaimed claim, String agentId) throws SQLException {
        int cap = config.jobs().maxGrantsPerAgent();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT count(*) FROM job WHERE agent_id = ? AND state = 'assigned'")) {
            ps.setString(1, agentId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long held = rs.getLong(1);
                if (held < cap) {
                    return false;
                }
                LOG.infof(
                        "claim of run %s for job %s refused: agent %s holds %d jobs, the most"
                                + " podium.ingest.jobs.max-grants-per-agent (%d) allows",
                        claim.runId(), claim.jobId(), agentId, held, cap);
                return true;
            }
        }
    }

    /**
     * The campaign's secrets sealed for the claiming agent's key and this grant only; empty (logged) when it has some
     * and the agent no active key to seal them for.
     */
    private Optional<Secrets> sealSecrets(Connection c, JobClaimed claim, String agentId, Claimed job)
            throws SQLException {
        Map<String, String> values = job.campaignId() == null ? Map.of() : campaignSecrets.open(c, job.campaignId());
        if (values.isEmpty()) {
            return Optional.of(new Secrets(null));
        }
        Optional<AgentKey> key = keys.active(c, agentId);
        if (key.isEmpty()) {
            LOG.warnf(
                    "claim of run %s ignored: job %s has secrets and agent %s no active key to seal them for",
                    claim.runId(), claim.jobId(), agentId);
            return Optional.empty();
        }
        return Optional.of(new Secrets(JobSecrets.seal(
                key.get().keyId(), key.get().secret(), claim.jobId(), claim.runId(), job.epoch(), values)));
    }

    /** True when this claim won the epoch; false when another claim holds it already. */
    private static boolean insertGrant(Connection c, JobClaimed claim, int epoch, String agentId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO job_grant (job_id, lease_epoch, run_id, agent_id) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING RETURNING job_id""")) {
            ps.setObject(1, claim.jobId());
            ps.setInt(2, epoch);
            ps.setObject(3, claim.runId());
            ps.setString(4, agentId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Gives the job's lease to the claiming run until its deadline and appends JobAssigned, with its record for
     * podium.jobs. The deadline is what the spec allows the run (its timeout for each repetition, at least one) plus one
     * lease for setup and reporting; it stays on the job row, since JobAssigned's schema has no field for it.
     */
    private void assign(Connection c, JobClaimed claim, String agentId, int epoch, SealedSecrets secrets)
            throws SQLException {
        Instant expires;
        long seq;
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE job SET state = 'assigned', run_id = ?, agent_id = ?, seq = seq + 1,
                    lease_expires_at = clock_timestamp() + make_interval(secs => ?),
                    lease_deadline = clock_timestamp() + make_interval(secs => ? + (spec->>'timeout_seconds')::float8
                        * greatest(1, (spec->>'repetitions')::int)),
                    updated_at = clock_timestamp()
                WHERE job_id = ? RETURNING lease_expires_at, seq""")) {
            double lease = config.jobs().leaseDuration().toMillis() / 1000.0;
            ps.setObject(1, claim.runId());
            ps.setString(2, agentId);
            ps.setDouble(3, lease);
            ps.setDouble(4, lease);
            ps.setObject(5, claim.jobId());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                expires = rs.getTimestamp(1).toInstant();
                seq = rs.getLong(2);
            }
        }
        Envelope assigned = Envelope.of(
                TimeOrderedIds.next(),
                StreamId.job(claim.jobId()),
                seq,
                null,
                Instant.now(),
                new JobAssigned(claim.jobId(), claim.runId(), agentId, epoch, expires, secrets));
        // JobAssigned states its epoch, so no job row is asked for one.
        for (Outbox.Record r : log.append(c, List.of(assigned), GRANT_WRITER, jobId -> epoch)) {
            outbox.add(c, r);
        }
    }

    /** Ends the job the run holds; the job when it belongs to a campaign, with the run's result when it completed. */
    private static Optional<AdaptiveRuns.Finished> finish(
            Connection c, UUID runId, String state, RunCompleted completed) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE job SET state = ?, lease_expires_at = NULL, lease_deadline = NULL, updated_at = clock_timestamp()
                WHERE run_id = ? AND state = 'assigned'
                RETURNING campaign_id, pool, (spec->'parameters')::text""")) {
            ps.setString(1, state);
            ps.setObject(2, runId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getObject(1) == null) {
                    return Optional.empty();
                }
                return Optional.of(new AdaptiveRuns.Finished(
                        rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), completed));
            }
        }
    }

    /**
     * A heartbeat renews the lease it names when that lease is the job's active one, up to the lease's deadline and
     * never past it; true when it did.
     */
    public boolean renewLease(Connection c, String agentId, UUID jobId, UUID runId, int epoch) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE job SET lease_expires_at = LEAST(lease_deadline, clock_timestamp() + make_interval(secs => ?))
                WHERE job_id = ? AND run_id = ? AND agent_id = ? AND lease_epoch = ? AND state = 'assigned'""")) {
            ps.setDouble(1, config.jobs().leaseDuration().toMillis() / 1000.0);
            ps.setObject(2, jobId);
            ps.setObject(3, runId);
            ps.setString(4, agentId);
            ps.setInt(5, epoch);
            return ps.executeUpdate() == 1;
        }
    }
}
