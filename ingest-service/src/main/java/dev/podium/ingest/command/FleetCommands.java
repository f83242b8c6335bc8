package dev.podium.ingest.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.CampaignCreated;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.Adaptive;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.WorkloadAllowlist;
import dev.podium.events.published.Reproduction;
import dev.podium.ingest.command.problem.FieldViolation;
import dev.podium.ingest.command.problem.InvalidRequestException;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.entity.CampaignEntity;
import dev.podium.ingest.entity.JobEntity;
import dev.podium.ingest.projection.Projections;
import dev.podium.ingest.store.CampaignSecretStore;
import dev.podium.ingest.store.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.ToIntFunction;
import org.jboss.logging.Logger;

/**
 * What admins and the timers decide about campaigns and jobs, each in a JTA transaction: the {@code campaign} and
 * {@code job} rows change as entities, and the events decided are appended (projections included) on a connection
 * enlisted in the same transaction ({@link EnlistedJdbc}), with the records agents act on put in the outbox. What the
 * ingest batch decides (grants, ends, renewals) is {@link JobCommands}.
 */
@ApplicationScoped
public class FleetCommands {

    private static final Logger LOG = Logger.getLogger(FleetCommands.class);

    public static final String REAPER_WRITER = "command:reaper";
    public static final String SCHEDULE_WRITER = "command:schedule";

    /** Advisory locks (transaction level) that keep one reaper and one schedule check at a time. */
    public static final long REAPER_LOCK = 0x706f6469756d02L;

    public static final long SCHEDULE_LOCK = 0x706f6469756d03L;

    private static final int REAPER_BATCH = 200;

    /**
     * A campaign to create; {@code period} follows from {@code schedule} (see {@link CampaignPlan#period}).
     * {@code secrets} are environment values no event carries in clear: each grant carries them sealed for its agent.
     * {@code excludeFlagged}: no job of it is granted to an agent the fleet view flags.
     */
    public record NewCampaign(
            String name,
            JobSpec spec,
            List<String> pools,
            String schedule,
            Duration period,
            Map<String, String> secrets,
            boolean excludeFlagged) {}

    /** A campaign created and its first jobs, in pool, then matrix point order. */
    public record Created(UUID campaignId, List<UUID> jobIds) {}

    /** What a cancel found and left: {@code before} is requested or assigned when it cancelled the job. */
    public record Cancellation(UUID jobId, String before, String after) {

        public boolean cancelled() {
            return !before.equals(after);
        }
    }

    private final EnlistedJdbc jdbc;
    private final CommandLog log;
    private final Outbox outbox;
    private final CampaignSecretStore campaignSecrets;
    private final AdaptiveRuns adaptiveRuns;
    private final IngestConfig.Workloads workloads;
    private final EventCodec codec = new EventCodec();

    public FleetCommands(
            EnlistedJdbc jdbc,
            CommandLog log,
            Outbox outbox,
            CampaignSecretStore campaignSecrets,
            AdaptiveRuns adaptiveRuns,
            IngestConfig config) {
        this.jdbc = jdbc;
        this.log = log;
        this.outbox = outbox;
        this.campaignSecrets = campaignSecrets;
        this.adaptiveRuns = adaptiveRuns;
        this.workloads = config.workloads();
    }

    /** What {@code pool}'s jobs may run: its own lists where configured, else those of every pool. */
    public WorkloadAllowlist allowlist(String pool) {
        IngestConfig.Workloads.Pool own = workloads.pools().get(pool);
        return new WorkloadAllowlist(
                Set.copyOf(
                        own != null && own.adapters().isPresent()
                                ? own.adapters().get()
                                : workloads.adapters()),
                own != null && own.commands().isPresent()
                        ? own.commands().get()
                        : workloads.commands().orElse(List.of()));
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
        Set<FieldViolation> out = new LinkedHashSet<>(adaptiveProblems(campaign, jobCount));
        String allowlistField = JobSpec.COMMAND_ADAPTER.equals(
                        String.valueOf(campaign.spec().adapter()).strip())
                ? "spec.command"
                : "spec.adapter";
        for (String pool : campaign.pools()) {
            allowlist(pool)
                    .refusal(pool, campaign.spec())
                    .ifPresent(why -> out.add(new FieldViolation(allowlistField, why)));
        }
        List<Map<String, String>> points = CampaignPlan.points(campaign.spec().matrix());
        for (String pool : campaign.pools()) {
            for (Map<String, String> point : points) {
                UUID id = TimeOrderedIds.next();
                Envelope env = Envelope.of(
                        TimeOrderedIds.next(),
                        StreamId.job(id),
                        1,
                        null,
                        Instant.now(),
                        new JobRequested(
                                id, TimeOrderedIds.next(), pool, CampaignPlan.jobSpec(campaign.spec(), point, pool)));
                if (codec.decode(codec.encode(env)) instanceof Decoded.Rejected r) {
                    r.violations().forEach(v -> out.add(new FieldViolation(requestField(v.field()), v.reason())));
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * An adaptive campaign measures one ratio, so it has exactly two sides (two pools of one point, or two points on
     * one pool), runs once (a schedule would mix issues in one ratio), and its budget is bounded ({@link Adaptive}).
     */
    private static List<FieldViolation> adaptiveProblems(NewCampaign campaign, long jobCount) {
        Adaptive adaptive = campaign.spec().adaptive();
        if (adaptive == null) {
            return List.of();
        }
        List<FieldViolation> out = new ArrayList<>();
        adaptive.problems().forEach(p -> out.add(new FieldViolation("spec.adaptive", p)));
        if (jobCount != 2) {
            out.add(new FieldViolation(
                    "spec.adaptive",
                    "needs a campaign of two sides (two pools, or two points of the matrix on one pool) whose ratio it"
                            + " narrows; this one has " + jobCount));
        }
        if (campaign.period() != null) {
            out.add(new FieldViolation("schedule", "an adaptive campaign runs once; leave out the schedule"));
        }
        return out;
    }

    /** The request field a JobRequested's field comes from: its spec's fields are the request's, its pool one of pools. */
    private static String requestField(String eventField) {
        String field = eventField.startsWith("payload.") ? eventField.substring("payload.".length()) : eventField;
        return field.equals("pool") || field.equals("spec.pool") ? "pools" : field;
    }

    /**
     * Creates the campaign, its secrets and its first jobs, and appends CampaignCreated and their JobRequested, in the
     * caller's transaction or a new one: the one way every admin command makes a campaign.
     *
     * @throws InvalidRequestException when {@link #problems} finds any (nothing is written)
     */
    @Transactional
    public Created createCampaign(NewCampaign campaign, String actor, String writer) {
        List<FieldViolation> problems = problems(campaign);
        if (!problems.isEmpty()) {
            throw new InvalidRequestException(problems);
        }
        lockProjectionsShared();
        CampaignEntity row = new CampaignEntity();
        row.campaignId = TimeOrderedIds.next();
        row.name = campaign.name();
        row.spec = json(campaign.spec());
        row.pools = campaign.pools().toArray(String[]::new);
        row.schedule = campaign.schedule();
        row.periodSeconds = campaign.period() == null ? null : campaign.period().toSeconds();
        row.lastIssuedAt = Instant.now();
        row.actor = actor;
        row.excludeFlagged = campaign.excludeFlagged();
        row.persist();
        campaignSecrets.put(row.campaignId, campaign.secrets());
        List<Envelope> events = new ArrayList<>();
        events.add(Envelope.of(
                TimeOrderedIds.next(),
                StreamId.campaign(row.campaignId),
                1,
                null,
                Instant.now(),
                new CampaignCreated(
                        row.campaignId,
                        campaign.name(),
                        campaign.spec(),
                        campaign.pools(),
                        campaign.schedule(),
                        actor,
                        campaign.excludeFlagged() ? Boolean.TRUE : null)));
        List<UUID> jobIds = issueJobs(row, campaign.spec(), 1, events);
        publish(events, writer, jobId -> 1);
        Adaptive adaptive = campaign.spec().adaptive();
        if (adaptive != null) {
            String metric = adaptive.metric() != null && !adaptive.metric().isBlank()
                    ? adaptive.metric().strip()
                    : Reproduction.metricFor(campaign.spec().benchmark());
            jdbc.call(c -> {
                adaptiveRuns.start(c, row.campaignId, adaptive, metric);
                return null;
            });
        }
        return new Created(row.campaignId, jobIds);
    }

    /** Adds the jobs of one issuing of the campaign (epoch 1, seq 1) and their JobRequested to {@code events}. */
    private List<UUID> issueJobs(CampaignEntity campaign, JobSpec spec, int issue, List<Envelope> events) {
        List<UUID> ids = new ArrayList<>();
        for (String pool : campaign.pools) {
            // a scheduled campaign's pool may have been closed to it since it was created
            Optional<String> refused = allowlist(pool).refusal(pool, spec);
            if (refused.isPresent()) {
                LOG.warnf("campaign %s issues no jobs to pool %s: %s", campaign.campaignId, pool, refused.get());
                continue;
            }
            for (Map<String, String> point : CampaignPlan.points(spec.matrix())) {
                JobSpec jobSpec = CampaignPlan.jobSpec(spec, point, pool);
                JobEntity job = new JobEntity();
                job.jobId = TimeOrderedIds.next();
                job.campaignId = campaign.campaignId;
                job.issue = issue;
                job.pool = pool;
                job.spec = json(jobSpec);
                job.state = JobEntity.REQUESTED;
                job.leaseEpoch = 1;
                job.seq = 1;
                job.updatedAt = Instant.now();
                job.persist();
                ids.add(job.jobId);
                events.add(Envelope.of(
                        TimeOrderedIds.next(),
                        StreamId.job(job.jobId),
                        1,
                        null,
                        Instant.now(),
                        new JobRequested(job.jobId, campaign.campaignId, pool, jobSpec)));
            }
        }
        return ids;
    }

    /** Cancels a job that has not ended (JobCancelled); empty for an unknown job. */
    @Transactional
    public Optional<Cancellation> cancel(UUID jobId, String reason, String actor, String writer) {
        lockProjectionsShared();
        Optional<JobEntity> found = JobEntity.lock(jobId);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        JobEntity job = found.get();
        String before = job.state;
        if (!before.equals(JobEntity.REQUESTED) && !before.equals(JobEntity.ASSIGNED)) {
            return Optional.of(new Cancellation(jobId, before, before));
        }
        job.state = JobEntity.CANCELLED;
        job.leaseExpiresAt = null;
        job.leaseDeadline = null;
        job.seq += 1;
        job.updatedAt = Instant.now();
        Envelope cancelled = Envelope.of(
                TimeOrderedIds.next(),
                StreamId.job(jobId),
                job.seq,
                null,
                Instant.now(),
                new JobCancelled(jobId, reason, actor));
        publish(List.of(cancelled), writer, id -> job.leaseEpoch);
        if (job.campaignId != null) {
            jdbc.call(c -> {
                adaptiveRuns.onCancelled(c, job.campaignId);
                return null;
            });
        }
        return Optional.of(new Cancellation(jobId, before, JobEntity.CANCELLED));
    }

    /** Stops a campaign's schedule (its jobs stay as they are); false for an unknown campaign. */
    @Transactional
    public boolean unschedule(UUID campaignId) {
        CampaignEntity campaign = CampaignEntity.findById(campaignId);
        if (campaign == null) {
            return false;
        }
        campaign.schedule = null;
        campaign.periodSeconds = null;
        return true;
    }

    /**
     * The reaper: every assigned job whose lease is past expiry gets JobLeaseExpired and is offered again (JobRequested,
     * same job, next epoch). A lease at its deadline ends the same way: the run that overran is superseded and another
     * run gets the whole of the spec's time, rather than the job ending failed for what may be one slow or lying agent. One reaper at a time (advisory lock; another one returns at once). The number expired.
     */
    @Transactional
    public int reapExpiredLeases() {
        if (!jdbc.tryLock(REAPER_LOCK)) {
            return 0;
        }
        lockProjectionsShared();
        List<JobEntity> expired = JobEntity.lockExpired(REAPER_BATCH);
        List<Envelope> events = new ArrayList<>();
        Map<UUID, Integer> epochs = new HashMap<>();
        for (JobEntity job : expired) {
            int epoch = job.leaseEpoch;
            events.add(Envelope.of(
                    TimeOrderedIds.next(),
                    StreamId.job(job.jobId),
                    job.seq + 1,
                    null,
                    Instant.now(),
                    new JobLeaseExpired(job.jobId, job.runId, job.agentId, epoch)));
            events.add(Envelope.of(
                    TimeOrderedIds.next(),
                    StreamId.job(job.jobId),
                    job.seq + 2,
                    null,
                    Instant.now(),
                    new JobRequested(job.jobId, job.campaignId, job.pool, spec(job.spec))));
            LOG.infof(
                    "lease of job %s (run %s, agent %s, epoch %d) %s; offered again as epoch %d",
                    job.jobId, job.runId, job.agentId, epoch, why(job), epoch + 1);
            reoffer(job);
            epochs.put(job.jobId, job.leaseEpoch);
        }
        publish(events, REAPER_WRITER, epochs::get);
        return expired.size();
    }

    /** Why an expired lease ended: its run stopped renewing it, or the spec's time for it ran out. */
    private static String why(JobEntity job) {
        return job.leaseDeadline != null && !job.leaseExpiresAt.isBefore(job.leaseDeadline)
                ? "reached its deadline " + job.leaseDeadline
                : "expired";
    }

    /** The job requested again under the next epoch, its lease and holder cleared, past the two events it gets. */
    private static void reoffer(JobEntity job) {
        job.state = JobEntity.REQUESTED;
        job.leaseEpoch += 1;
        job.runId = null;
        job.agentId = null;
        job.leaseExpiresAt = null;
        job.leaseDeadline = null;
        job.seq += 2;
        job.updatedAt = Instant.now();
    }

    /**
     * Re-issues the jobs of every scheduled campaign that is due (last issued + period has passed), with new job ids, so
     * history accumulates. One check at a time (advisory lock). The number of campaigns issued.
     */
    @Transactional
    public int issueDueCampaigns() {
        if (!jdbc.tryLock(SCHEDULE_LOCK)) {
            return 0;
        }
        lockProjectionsShared();
        List<CampaignEntity> due = CampaignEntity.lockDue();
        for (CampaignEntity campaign : due) {
            int issue = JobEntity.nextIssue(campaign.campaignId);
            List<Envelope> events = new ArrayList<>();
            issueJobs(campaign, spec(campaign.spec), issue, events);
            campaign.lastIssuedAt = Instant.now();
            publish(events, SCHEDULE_WRITER, jobId -> 1);
            LOG.infof("scheduled campaign %s issued again (issue %d)", campaign.campaignId, issue);
        }
        return due.size();
    }

    /** Waits while a rebuild holds the projections (they are applied in this transaction). */
    private void lockProjectionsShared() {
        jdbc.call(c -> {
            Projections.lockShared(c);
            return null;
        });
    }

    /** Appends on the enlisted connection, then puts the job events' records in the outbox, all in this transaction. */
    private void publish(List<Envelope> events, String writer, ToIntFunction<UUID> rowEpoch) {
        jdbc.call(c -> log.append(c, events, writer, rowEpoch)).forEach(outbox::add);
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
