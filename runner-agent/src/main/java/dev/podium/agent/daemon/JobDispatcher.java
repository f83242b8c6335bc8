package dev.podium.agent.daemon;

import dev.podium.agent.job.JobDefinition;
import dev.podium.agent.job.JobRunner;
import dev.podium.agent.job.JobSpecException;
import dev.podium.agent.publish.EventSink;
import dev.podium.events.Event;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobEvent;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.WorkloadAllowlist;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunFailed;
import dev.podium.events.secret.SealedSecrets;
import java.io.PrintStream;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The agent's side of the jobs protocol: claims open jobs of its pool while it has a free slot, starts a job only when a
 * JobAssigned grants it to this agent and the run its claim opened, and stops it on JobCancelled, on JobLeaseExpired of
 * its epoch, or when the job is granted to another run. Until the feed has caught up with {@code podium.jobs} it only
 * builds the board, so a restarted agent never claims what was assigned, cancelled or expired meanwhile.
 * <p>
 * An unanswered claim holds its slot for the claim timeout, so that an agent with one slot is never granted two jobs at
 * once; the same offer of a job is claimed at most once.
 */
final class JobDispatcher {

    /** What a heartbeat says about a running job. */
    record Current(UUID jobId, UUID runId, int leaseEpoch) {}

    /** A claim of one offer: the spec claimed is the one a grant runs. */
    private record Claim(
            UUID jobId, UUID runId, int offer, JobSpec spec, EventSink.StreamWriter stream, long atNanos) {}

    private static final class Active {
        final UUID jobId;
        final UUID runId;
        final JobRunner runner;
        volatile int leaseEpoch;

        Active(UUID jobId, UUID runId, int leaseEpoch, JobRunner runner) {
            this.jobId = jobId;
            this.runId = runId;
            this.leaseEpoch = leaseEpoch;
            this.runner = runner;
        }
    }

    private final JobBoard board;
    private final EventSink sink;
    private final String agentId;
    private final String pool;
    private final WorkloadAllowlist allowlist;
    private final int slots;
    private final Duration claimTimeout;
    private final Supplier<JobRunner> runners;
    private final Runnable onChange;
    private final PrintStream log;
    private final ExecutorService executor;
    /** Claims by run id, answered or not; a grant is honoured only for one of these. */
    private final Map<UUID, Claim> claims = new LinkedHashMap<>();
    /** Run ids of claims not yet answered by a JobAssigned, a cancel or the timeout. */
    private final Set<UUID> pending = new HashSet<>();
    /** Offers already claimed, as job id + offer number. */
    private final Set<String> claimedOffers = new HashSet<>();

    private final Map<UUID, Active> running = new LinkedHashMap<>();
    /** Runs started, so that no grant (a replay, or one the event id memory forgot) runs one twice. */
    private final Set<UUID> started = new HashSet<>();

    private boolean caughtUp;
    private boolean stopping;

    JobDispatcher(
            EventSink sink,
            String pool,
            WorkloadAllowlist allowlist,
            int slots,
            Duration claimTimeout,
            Supplier<JobRunner> runners,
            Runnable onChange,
            PrintStream log) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be at least 1, was " + slots);
        }
        this.sink = sink;
        this.agentId = sink.agentId();
        this.pool = pool;
        this.allowlist = allowlist;
        this.slots = slots;
        this.claimTimeout = claimTimeout;
        this.runners = runners;
        this.board = new JobBoard(log);
        this.onChange = onChange;
        this.log = log;
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(slots, r -> {
            Thread t = new Thread(r, "podium-job-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Applies one record of {@code podium.jobs} whose command signature was verified for lease epoch {@code epoch}; a
     * duplicate (an event id seen before) or a refused record changes nothing.
     */
    synchronized void accept(UUID eventId, JobEvent event, int epoch) {
        if (!board.apply(eventId, event, epoch) || !caughtUp) {
            return;
        }
        if (event instanceof JobAssigned a) {
            assigned(a);
        } else if (event instanceof JobLeaseExpired x) {
            Active active = running.get(x.jobId());
            if (active != null && active.runId.equals(x.runId()) && active.leaseEpoch == x.leaseEpoch()) {
                stop(active, "lease of epoch " + x.leaseEpoch() + " expired");
            }
        } else if (event instanceof JobCancelled c) {
            dropClaims(c.jobId());
            Active active = running.get(c.jobId());
            if (active != null) {
                stop(active, "job cancelled by " + c.actor() + (c.reason() == null ? "" : ": " + c.reason()));
            }
        }
        claimOpenJobs();
    }

    /** The feed has read {@code podium.jobs} up to where it stood at the start: from now on, act. */
    synchronized void caughtUp() {
        caughtUp = true;
        claimOpenJobs();
    }

    /** Called after every poll: expires unanswered claims and claims what became claimable. */
    synchronized void tick() {
        if (caughtUp) {
            claimOpenJobs();
        }
    }

    synchronized Optional<Current> current() {
        return running().stream().findFirst();
    }

    /** Every running job, oldest first. */
    synchronized List<Current> running() {
        return running.values().stream()
                .map(a -> new Current(a.jobId, a.runId, a.leaseEpoch))
                .toList();
    }

    synchronized int runningCount() {
        return running.size();
    }

    /** Stops every running job (RunCancelled "agent stopped") and waits up to {@code timeout} for them to end. */
    void shutdown(Duration timeout) {
        synchronized (this) {
            stopping = true;
            new ArrayList<>(running.values()).forEach(a -> stop(a, "agent stopped"));
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                log.println("jobs did not stop within " + timeout.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void assigned(JobAssigned a) {
        JobBoard.Job job = board.job(a.jobId()).orElseThrow();
        if (job.status() != JobBoard.Status.ASSIGNED) {
            return; // cancelled before
        }
        Active active = running.get(a.jobId());
        Claim claim = claims.get(a.runId());
        boolean mine =
                agentId.equals(a.agentId()) && claim != null && claim.jobId().equals(a.jobId());
        if (active != null) {
            if (active.runId.equals(a.runId()) && mine) {
                active.leaseEpoch = a.leaseEpoch();
                onChange.run();
            } else {
                stop(
                        active,
                        "job granted to run " + a.runId() + " of agent " + a.agentId() + " (epoch " + a.leaseEpoch()
                                + ")");
            }
            return;
        }
        if (!mine) {
            dropClaims(a.jobId());
            return;
        }
        pending.remove(a.runId());
        if (!started.add(a.runId())) {
            log.println("refusing the grant of job " + a.jobId() + " to run " + a.runId()
                    + ": a grant of that run came before");
            return;
        }
        if (stopping || running.size() >= slots) {
            log.println("job " + a.jobId() + " was granted to run " + a.runId() + " but this agent cannot take it now;"
                    + " its lease will expire");
            return;
        }
        start(job, claim, a.leaseEpoch(), a.secrets());
    }

    private void start(JobBoard.Job job, Claim claim, int epoch, SealedSecrets sealed) {
        // the command side's signature says who sent the job, not that this host runs such jobs: that is its own call
        Optional<String> refused = allowlist.refusal(pool, claim.spec());
        if (refused.isPresent()) {
            log.println("refusing job " + job.jobId() + " (run " + claim.runId() + "): " + refused.get());
            emitQuietly(
                    claim.stream(),
                    new RunFailed(claim.runId(), "setup", null, "refused by this agent: " + refused.get(), null));
            return;
        }
        Map<String, String> secrets;
        try {
            secrets = sealed == null ? Map.of() : sink.openSecrets(sealed, job.jobId(), claim.runId(), epoch);
        } catch (GeneralSecurityException e) {
            log.println("job " + job.jobId() + " granted (run " + claim.runId()
                    + ") with secrets this agent cannot open: " + e.getMessage());
            emitQuietly(
                    claim.stream(),
                    new RunFailed(
                            claim.runId(),
                            "setup",
                            null,
                            "the grant's secrets do not open with this agent's key",
                            null));
            return;
        }
        JobRunner runner = runners.get();
        Active active = new Active(job.jobId(), claim.runId(), epoch, runner);
        running.put(job.jobId(), active);
        log.println("job " + job.jobId() + " granted (run " + claim.runId() + ", epoch " + epoch + "): starting");
        onChange.run();
        JobDefinition definition = new JobDefinition(claim.spec(), null, null, null, List.of());
        executor.execute(() -> {
            try {
                runner.runGranted(definition, claim.stream(), claim.runId(), job.jobId(), active.leaseEpoch, secrets);
            } catch (JobSpecException e) {
                emitQuietly(claim.stream(), new RunFailed(claim.runId(), "setup", null, e.getMessage(), null));
            } catch (RuntimeException e) {
                log.println("job " + job.jobId() + " (run " + claim.runId() + ") stopped by an error: " + e);
                emitQuietly(claim.stream(), new RunFailed(claim.runId(), "setup", null, "agent error: " + e, null));
            } finally {
                finished(active);
            }
        });
    }

    private void emitQuietly(EventSink.StreamWriter stream, Event event) {
        try {
            stream.emit(event);
        } catch (RuntimeException e) {
            log.println("cannot journal " + event.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private synchronized void finished(Active active) {
        running.remove(active.jobId, active);
        log.println("job " + active.jobId + " (run " + active.runId + ") ended");
        onChange.run();
        if (caughtUp && !stopping) {
            claimOpenJobs();
        }
    }

    private void stop(Active active, String reason) {
        log.println("stopping job " + active.jobId + " (run " + active.runId + "): " + reason);
        active.runner.cancel(reason);
    }

    private void dropClaims(UUID jobId) {
        pending.removeIf(runId -> claims.get(runId).jobId().equals(jobId));
    }

    private void claimOpenJobs() {
        if (stopping) {
            return;
        }
        long now = System.nanoTime();
        pending.removeIf(runId -> now - claims.get(runId).atNanos() > claimTimeout.toNanos());
        int free = slots - running.size() - pending.size();
        for (JobBoard.Job job : board.open(pool)) {
            if (free <= 0) {
                return;
            }
            if (running.containsKey(job.jobId()) || !claimedOffers.add(job.jobId() + "#" + job.offer())) {
                continue;
            }
            UUID runId = TimeOrderedIds.next();
            EventSink.StreamWriter stream = sink.stream(StreamId.run(runId));
            try {
                stream.emit(new JobClaimed(runId, job.jobId(), agentId, pool));
            } catch (RuntimeException e) {
                log.println("cannot claim job " + job.jobId() + ": " + e.getMessage());
                claimedOffers.remove(job.jobId() + "#" + job.offer());
                return;
            }
            claims.put(runId, new Claim(job.jobId(), runId, job.offer(), job.spec(), stream, now));
            pending.add(runId);
            free--;
            log.println("claimed job " + job.jobId() + " (run " + runId + ")");
        }
    }
}
