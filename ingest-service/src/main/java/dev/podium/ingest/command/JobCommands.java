package dev.podium.ingest.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.podium.events.Envelope;
import dev.podium.events.Event;
import dev.podium.events.StreamId;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.CampaignCreated;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobEvent;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.JobSpec;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.secret.JobSecrets;
import dev.podium.events.secret.SealedSecrets;
import dev.podium.events.sign.CommandSignature;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.projection.Projections;
import dev.podium.ingest.store.AgentKey;
import dev.podium.ingest.store.AgentKeyStore;
import dev.podium.ingest.store.Appended;
import dev.podium.ingest.store.CampaignSecretStore;
import dev.podium.ingest.store.Outbox;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The command side of fleet benchmarking, always in the caller's transaction: every event it decides is appended to the
 * event store (with its projections) and, for the job events agents act on, to the outbox for {@code podium.jobs}
 * (key = job id, value = the envelope bytes). The {@code job} row is the job's state and the lock that orders writes to
 * its stream; {@code job_grant}'s primary key (job, epoch) decides the first claim.
 */
@ApplicationScoped
public class JobCommands {

    private static final Logger LOG = Logger.getLogger(JobCommands.class);

    /** Writers of the events the command side decides by itself. */
    public static final String GRANT_WRITER = "command:grant";

    public static final String REAPER_WRITER = "command:reaper";
    public static final String SCHEDULE_WRITER = "command:schedule";

    /** Advisory locks (transaction level) that keep one reaper and one schedule check at a time. */
    public static final long REAPER_LOCK = 0x706f6469756d02L;

    public static final long SCHEDULE_LOCK = 0x706f6469756d03L;

    /**
     * A campaign to create; {@code period} follows from {@code schedule} (see {@link CampaignPlan#period}).
     * {@code secrets} are environment values no event carries in clear: each grant carries them sealed for its agent.
     */
    public record NewCampaign(
            String name,
            JobSpec spec,
            List<String> pools,
            String schedule,
            Duration period,
            Map<String, String> secrets) {}

    /** What a cancel found and left: {@code before} is requested or assigned when it cancelled the job. */
    public record Cancellation(UUID jobId, String before, String after) {

        public boolean cancelled() {
            return !before.equals(after);
        }
    }

    private final CommandAppender appender;
    private final Outbox outbox;
    private final CommandKey commandKey;
    private final AgentKeyStore keys;
    private final IngestConfig config;
    private final CampaignSecretStore campaignSecrets;
    private final EventCodec codec = new EventCodec();

    public JobCommands(
            CommandAppender appender,
            Outbox outbox,
            CommandKey commandKey,
            AgentKeyStore keys,
            IngestConfig config,
            CampaignSecretStore campaignSecrets) {
        this.appender = appender;
        this.outbox = outbox;
        this.commandKey = commandKey;
        this.keys = keys;
        this.config = config;
        this.campaignSecrets = campaignSecrets;
    }

    /**
     * Every rule the job requests of this campaign would break, checked on the events themselves and named by the field
     * of the request they come from ({@code spec.parameters}, {@code pools}); empty when it may be created.
     */
    public List<FieldViolation> problems(NewCampaign campaign) {
        long count = CampaignPlan.count(campaign.spec().matrix());
        long jobCount =
                count > CampaignPlan.MAX_JOBS ? count : count * campaign.pools().size();
        if (jobCount > CampaignPlan.MAX_JOBS) {
            return List.of(new FieldViolation(
                    "spec.matrix",
                    "the campaign would make "
                            + (jobCount == Long.MAX_VALUE ? "at least " + jobCount : jobCount)
                            + " jobs, over the limit of "
                            + CampaignPlan.MAX_JOBS));
        }
        Set<FieldViolation> out = new LinkedHashSet<>();
        List<Map<String, String>> points = CampaignPlan.points(campaign.spec().matrix());
        for (String pool : campaign.pools()) {
            for (Map<String, String> point : points) {
                UUID id = UUID.randomUUID();
                Envelope env = Envelope.of(
                        UUID.randomUUID(),
                        StreamId.job(id),
                        1,
                        null,
                        Instant.now(),
                        new JobRequested(
                                id, UUID.randomUUID(), pool, CampaignPlan.jobSpec(campaign.spec(), point, pool)));
                if (codec.decode(codec.encode(env)) instanceof Decoded.Rejected r) {
                    r.violations().forEach(v -> out.add(new FieldViolation(requestField(v.field()), v.reason())));
                }
            }
        }
        return List.copyOf(out);
    }

    /** The request field a JobRequested's field comes from: its spec's fields are the request's, its pool one of pools. */
    private static String requestField(String eventField) {
        String field = eventField.startsWith("payload.") ? eventField.substring("payload.".length()) : eventField;
        return field.equals("pool") || field.equals("spec.pool") ? "pools" : field;
    }

    /** Appends CampaignCreated and the campaign's first jobs; their ids in pool, then matrix point order. */
    public List<UUID> createCampaign(Connection c, UUID campaignId, NewCampaign campaign, String actor, String writer)
            throws SQLException {
        Projections.lockShared(c);
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign (campaign_id, name, spec, pools, schedule, period_seconds, last_issued_at, actor)
                VALUES (?, ?, ?::jsonb, ?, ?, ?, clock_timestamp(), ?)""")) {
            ps.setObject(1, campaignId);
            ps.setString(2, campaign.name());
            ps.setString(3, json(campaign.spec()));
            ps.setArray(4, c.createArrayOf("text", campaign.pools().toArray()));
            ps.setString(5, campaign.schedule());
            if (campaign.period() == null) {
                ps.setNull(6, Types.BIGINT);
            } else {
                ps.setLong(6, campaign.period().toSeconds());
            }
            ps.setString(7, actor);
            ps.executeUpdate();
        }
        campaignSecrets.put(c, campaignId, campaign.secrets());
        append(
                c,
                List.of(Envelope.of(
                        UUID.randomUUID(),
                        StreamId.campaign(campaignId),
                        1,
                        null,
                        Instant.now(),
                        new CampaignCreated(
                                campaignId,
                                campaign.name(),
                                campaign.spec(),
                                campaign.pools(),
                                campaign.schedule(),
                                actor))),
                writer);
        return issueJobs(c, campaignId, campaign.spec(), campaign.pools(), 1, writer);
    }

    private List<UUID> issueJobs(
            Connection c, UUID campaignId, JobSpec spec, List<String> pools, int issue, String writer)
            throws SQLException {
        List<UUID> ids = new ArrayList<>();
        List<Envelope> events = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO job (job_id, campaign_id, issue, pool, spec, state, lease_epoch, seq)
                VALUES (?, ?, ?, ?, ?::jsonb, 'requested', 1, 1)""")) {
            for (String pool : pools) {
                for (Map<String, String> point : CampaignPlan.points(spec.matrix())) {
                    UUID jobId = UUID.randomUUID();
                    JobSpec jobSpec = CampaignPlan.jobSpec(spec, point, pool);
                    ps.setObject(1, jobId);
                    ps.setObject(2, campaignId);
                    ps.setInt(3, issue);
                    ps.setString(4, pool);
                    ps.setString(5, json(jobSpec));
                    ps.addBatch();
                    ids.add(jobId);
                    events.add(Envelope.of(
                            UUID.randomUUID(),
                            StreamId.job(jobId),
                            1,
                            null,
                            Instant.now(),
                            new JobRequested(jobId, campaignId, pool, jobSpec)));
                }
            }
            ps.executeBatch();
        }
        append(c, events, writer);
        return ids;
    }

    /**
     * After a batch of agent events is appended (same transaction, position order): grants the first claim of each
     * job's current epoch, and ends a job when the run holding its lease completes, fails or is cancelled.
     */
    public void onRunEvents(Connection c, List<StoredEvent> fresh) throws SQLException {
        Set<UUID> assigned = lockJobsInIdOrder(c, fresh);
        // A run's end can only end a job assigned to it; a grant in this batch may assign one, so then every end looks.
        boolean grants = fresh.stream().anyMatch(e -> e.envelope().payload() instanceof JobClaimed);
        for (StoredEvent e : fresh) {
            Object p = e.envelope().payload();
            if (p instanceof JobClaimed claim) {
                grant(c, e.envelope(), claim);
            } else if (p instanceof RunCompleted r && (grants || assigned.contains(r.runId()))) {
                finish(c, r.runId(), "done");
            } else if (p instanceof RunFailed r && (grants || assigned.contains(r.runId()))) {
                finish(c, r.runId(), "failed");
            } else if (p instanceof RunCancelled r && (grants || assigned.contains(r.runId()))) {
                finish(c, r.runId(), "cancelled");
            }
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

    private void grant(Connection c, Envelope env, JobClaimed claim) throws SQLException {
        String agentId = env.agentId();
        int epoch;
        String pool;
        UUID campaignId;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT state, lease_epoch, pool, campaign_id FROM job WHERE job_id = ? FOR UPDATE")) {
            ps.setObject(1, claim.jobId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    LOG.debugf("claim of run %s ignored: no job %s", claim.runId(), claim.jobId());
                    return;
                }
                if (!"requested".equals(rs.getString(1))) {
                    LOG.debugf("claim of run %s ignored: job %s is %s", claim.runId(), claim.jobId(), rs.getString(1));
                    return;
                }
                pool = rs.getString(3);
                epoch = rs.getInt(2);
                campaignId = rs.getObject(4, UUID.class);
            }
        }
        // The pool bound to the agent's key decides, not what the claim says: a claim naming no pool, another pool, or
        // coming from a key bound to none is refused.
        Optional<String> keyPool = keys.pool(c, agentId);
        if (claim.pool() == null
                || !claim.pool().equals(pool)
                || keyPool.isEmpty()
                || !keyPool.get().equals(pool)) {
            LOG.infof(
                    "claim of run %s refused: job %s is in pool %s, the claim names %s, agent %s's key is bound to %s",
                    claim.runId(), claim.jobId(), pool, claim.pool(), agentId, keyPool.orElse("no pool"));
            return;
        }
        // The campaign's secrets travel sealed for the claiming agent's key and this grant only.
        Map<String, String> secretValues = campaignId == null ? Map.of() : campaignSecrets.open(c, campaignId);
        SealedSecrets secrets = null;
        if (!secretValues.isEmpty()) {
            Optional<AgentKey> key = keys.active(c, agentId);
            if (key.isEmpty()) {
                LOG.warnf(
                        "claim of run %s ignored: job %s has secrets and agent %s no active key to seal them for",
                        claim.runId(), claim.jobId(), agentId);
                return;
            }
            secrets = JobSecrets.seal(
                    key.get().keyId(), key.get().secret(), claim.jobId(), claim.runId(), epoch, secretValues);
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO job_grant (job_id, lease_epoch, run_id, agent_id) VALUES (?, ?, ?, ?)
                ON CONFLICT DO NOTHING RETURNING job_id""")) {
            ps.setObject(1, claim.jobId());
            ps.setInt(2, epoch);
            ps.setObject(3, claim.runId());
            ps.setString(4, agentId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return; // another claim holds this epoch
                }
            }
        }
        Instant expires;
        long seq;
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE job SET state = 'assigned', run_id = ?, agent_id = ?, seq = seq + 1,
                    lease_expires_at = clock_timestamp() + make_interval(secs => ?), updated_at = clock_timestamp()
                WHERE job_id = ? RETURNING lease_expires_at, seq""")) {
            ps.setObject(1, claim.runId());
            ps.setString(2, agentId);
            ps.setDouble(3, config.jobs().leaseDuration().toMillis() / 1000.0);
            ps.setObject(4, claim.jobId());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                expires = rs.getTimestamp(1).toInstant();
                seq = rs.getLong(2);
            }
        }
        append(
                c,
                List.of(Envelope.of(
                        UUID.randomUUID(),
                        StreamId.job(claim.jobId()),
                        seq,
                        null,
                        Instant.now(),
                        new JobAssigned(claim.jobId(), claim.runId(), agentId, epoch, expires, secrets))),
                GRANT_WRITER);
    }

    private static void finish(Connection c, UUID runId, String state) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE job SET state = ?, lease_expires_at = NULL, updated_at = clock_timestamp()
                WHERE run_id = ? AND state = 'assigned'""")) {
            ps.setString(1, state);
            ps.setObject(2, runId);
            ps.executeUpdate();
        }
    }

    /** A heartbeat renews the lease it names when that lease is the job's active one; true when it did. */
    public boolean renewLease(Connection c, String agentId, UUID jobId, UUID runId, int epoch) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE job SET lease_expires_at = clock_timestamp() + make_interval(secs => ?)
                WHERE job_id = ? AND run_id = ? AND agent_id = ? AND lease_epoch = ? AND state = 'assigned'""")) {
            ps.setDouble(1, config.jobs().leaseDuration().toMillis() / 1000.0);
            ps.setObject(2, jobId);
            ps.setObject(3, runId);
            ps.setString(4, agentId);
            ps.setInt(5, epoch);
            return ps.executeUpdate() == 1;
        }
    }

    /**
     * The reaper: every assigned job whose lease is past expiry gets JobLeaseExpired and is offered again (JobRequested,
     * same job, next epoch). One reaper at a time (advisory lock; another one returns at once). The number expired.
     */
    public int reapExpiredLeases(Connection c) throws SQLException {
        if (!tryLock(c, REAPER_LOCK)) {
            return 0;
        }
        Projections.lockShared(c);
        List<Envelope> events = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT job_id, run_id, agent_id, lease_epoch, seq, campaign_id, pool, spec::text FROM job
                WHERE state = 'assigned' AND lease_expires_at < clock_timestamp()
                ORDER BY lease_expires_at LIMIT 200 FOR UPDATE SKIP LOCKED""");
                PreparedStatement update = c.prepareStatement("""
                        UPDATE job SET state = 'requested', lease_epoch = lease_epoch + 1, run_id = NULL,
                            agent_id = NULL, lease_expires_at = NULL, seq = seq + 2, updated_at = clock_timestamp()
                        WHERE job_id = ?""")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    UUID jobId = rs.getObject(1, UUID.class);
                    UUID runId = rs.getObject(2, UUID.class);
                    String agentId = rs.getString(3);
                    int epoch = rs.getInt(4);
                    long seq = rs.getLong(5);
                    JobSpec spec = spec(rs.getString(8));
                    events.add(Envelope.of(
                            UUID.randomUUID(),
                            StreamId.job(jobId),
                            seq + 1,
                            null,
                            Instant.now(),
                            new JobLeaseExpired(jobId, runId, agentId, epoch)));
                    events.add(Envelope.of(
                            UUID.randomUUID(),
                            StreamId.job(jobId),
                            seq + 2,
                            null,
                            Instant.now(),
                            new JobRequested(jobId, rs.getObject(6, UUID.class), rs.getString(7), spec)));
                    update.setObject(1, jobId);
                    update.addBatch();
                    LOG.infof(
                            "lease of job %s (run %s, agent %s, epoch %d) expired; offered again as epoch %d",
                            jobId, runId, agentId, epoch, epoch + 1);
                }
            }
            update.executeBatch();
        }
        append(c, events, REAPER_WRITER);
        return events.size() / 2;
    }

    /** Cancels a job that has not ended (JobCancelled); empty for an unknown job. */
    public Optional<Cancellation> cancel(Connection c, UUID jobId, String reason, String actor, String writer)
            throws SQLException {
        Projections.lockShared(c);
        String state;
        long seq;
        try (PreparedStatement ps = c.prepareStatement("SELECT state, seq FROM job WHERE job_id = ? FOR UPDATE")) {
            ps.setObject(1, jobId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                state = rs.getString(1);
                seq = rs.getLong(2);
            }
        }
        if (!state.equals("requested") && !state.equals("assigned")) {
            return Optional.of(new Cancellation(jobId, state, state));
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE job SET state = 'cancelled', lease_expires_at = NULL, seq = seq + 1, updated_at = clock_timestamp()
                WHERE job_id = ?""")) {
            ps.setObject(1, jobId);
            ps.executeUpdate();
        }
        append(
                c,
                List.of(Envelope.of(
                        UUID.randomUUID(),
                        StreamId.job(jobId),
                        seq + 1,
                        null,
                        Instant.now(),
                        new JobCancelled(jobId, reason, actor))),
                writer);
        return Optional.of(new Cancellation(jobId, state, "cancelled"));
    }

    /** Stops a campaign's schedule (its jobs stay as they are); false for an unknown campaign. */
    public boolean unschedule(Connection c, UUID campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE campaign SET schedule = NULL, period_seconds = NULL WHERE campaign_id = ?")) {
            ps.setObject(1, campaignId);
            return ps.executeUpdate() == 1;
        }
    }

    /**
     * Re-issues the jobs of every scheduled campaign that is due (last issued + period has passed), with new job ids, so
     * history accumulates. One check at a time (advisory lock). The number of campaigns issued.
     */
    public int issueDueCampaigns(Connection c) throws SQLException {
        if (!tryLock(c, SCHEDULE_LOCK)) {
            return 0;
        }
        Projections.lockShared(c);
        record Due(UUID id, JobSpec spec, List<String> pools) {}
        List<Due> due = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT campaign_id, spec::text, pools FROM campaign
                WHERE period_seconds IS NOT NULL
                  AND last_issued_at + make_interval(secs => period_seconds) <= clock_timestamp()
                ORDER BY last_issued_at FOR UPDATE SKIP LOCKED""")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    due.add(new Due(rs.getObject(1, UUID.class), spec(rs.getString(2)), List.of((String[])
                            rs.getArray(3).getArray())));
                }
            }
        }
        for (Due d : due) {
            int issue;
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT coalesce(max(issue), 0) + 1 FROM job WHERE campaign_id = ?")) {
                ps.setObject(1, d.id());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    issue = rs.getInt(1);
                }
            }
            issueJobs(c, d.id(), d.spec(), d.pools(), issue, SCHEDULE_WRITER);
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE campaign SET last_issued_at = clock_timestamp() WHERE campaign_id = ?")) {
                ps.setObject(1, d.id());
                ps.executeUpdate();
            }
            LOG.infof("scheduled campaign %s issued again (issue %d)", d.id(), issue);
        }
        return due.size();
    }

    /**
     * Appends (projections included) and puts the job events agents act on in the outbox for podium.jobs, each signed by
     * the {@link CommandKey} for its lease epoch: a grant's or expiry's own, else (requests, cancels) the job row's as
     * this transaction left it.
     */
    private void append(Connection c, List<Envelope> events, String writer) throws SQLException {
        if (events.isEmpty()) {
            return;
        }
        List<Appended> appended = appender.append(c, events, writer);
        Map<UUID, Integer> rowEpochs = rowEpochs(c, events);
        for (int i = 0; i < events.size(); i++) {
            if (!(appended.get(i) instanceof Appended.Inserted)) {
                // The job row's lock orders its stream; anything else is a bug that must not reach agents.
                throw new IllegalStateException("command event " + events.get(i).eventId() + " on "
                        + events.get(i).streamId() + " was not appended: " + appended.get(i));
            }
            Event payload = events.get(i).payload();
            if (payload instanceof JobEvent job) {
                Integer stated = CommandSignature.epochInPayload(job);
                int epoch = stated != null ? stated : rowEpochs.get(job.jobId());
                byte[] value = codec.encode(events.get(i));
                outbox.add(
                        c,
                        config.topics().jobs(),
                        job.jobId().toString(),
                        value,
                        commandKey.headers(job, epoch, value));
            }
        }
    }

    private static Map<UUID, Integer> rowEpochs(Connection c, List<Envelope> events) throws SQLException {
        List<UUID> ids = events.stream()
                .map(Envelope::payload)
                .filter(p -> p instanceof JobEvent j && CommandSignature.epochInPayload(j) == null)
                .map(p -> ((JobEvent) p).jobId())
                .distinct()
                .toList();
        Map<UUID, Integer> out = new java.util.HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT job_id, lease_epoch FROM job WHERE job_id = ANY(?)")) {
            ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getObject(1, UUID.class), rs.getInt(2));
                }
            }
        }
        return out;
    }

    private static boolean tryLock(Connection c, long key) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT pg_try_advisory_xact_lock(" + key + ")")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    private String json(Object value) {
        try {
            return codec.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a job spec always encodes", e);
        }
    }

    private JobSpec spec(String json) {
        try {
            return codec.mapper().readValue(json, JobSpec.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored job spec always decodes", e);
        }
    }
}
