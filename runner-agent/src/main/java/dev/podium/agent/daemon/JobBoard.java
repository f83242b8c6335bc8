package dev.podium.agent.daemon;

import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobEvent;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.JobSpec;
import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The state of every job as {@code podium.jobs} tells it, built by applying its events in order. An event id seen before
 * (the relay delivers at least once) changes nothing. A job is open (claimable) from its JobRequested until a JobAssigned,
 * open again, as a new offer, after a JobLeaseExpired of its current grant or a new JobRequested of an assigned job, and
 * closed for good by JobCancelled. A grant of a cancelled job changes nothing.
 * <p>
 * Every record comes with the lease epoch its command signature binds. A record is refused (logged, changes nothing)
 * when it could only be a replay or a forgery by someone holding an old signed record: a grant whose epoch is not newer
 * than one already granted, a request or expiry of an epoch older than one seen, and a request whose pool or spec differs
 * from the job's first request (the command side never changes a job's spec, so an agent always runs what it claimed).
 */
final class JobBoard {

    /** Event ids remembered for deduplication; the oldest are forgotten beyond this. */
    static final int REMEMBERED_EVENT_IDS = 200_000;

    enum Status {
        OPEN,
        ASSIGNED,
        CANCELLED
    }

    /**
     * One job: its offer, and its grant while assigned. {@code offer} counts the times it was opened; {@code maxEpoch} is
     * the newest epoch of any record applied, {@code grantedEpoch} that of the newest grant (0: none yet).
     */
    record Job(
            UUID jobId,
            String pool,
            JobSpec spec,
            Status status,
            int offer,
            UUID runId,
            String agentId,
            int leaseEpoch,
            int maxEpoch,
            int grantedEpoch) {}

    private final Map<UUID, Job> jobs = new LinkedHashMap<>();
    private final PrintStream log;
    private final Set<UUID> seen = Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Boolean> eldest) {
            return size() > REMEMBERED_EVENT_IDS;
        }
    });

    JobBoard(PrintStream log) {
        this.log = log;
    }

    /**
     * Applies an event of lease epoch {@code epoch}; false when its event id was applied before or it is refused. An
     * assignment, expiry or cancel of a job never requested here (its request is older than the topic's retention) is
     * still recorded, without a spec.
     */
    boolean apply(UUID eventId, JobEvent event, int epoch) {
        if (!seen.add(eventId)) {
            return false;
        }
        Job old = jobs.get(event.jobId());
        String refusal = old == null ? null : refusal(old, event, epoch);
        if (refusal != null) {
            log.println("refusing " + event.getClass().getSimpleName() + " of job " + event.jobId() + " (epoch " + epoch
                    + "): " + refusal);
            return false;
        }
        int max = old == null ? epoch : Math.max(old.maxEpoch(), epoch);
        Job next = next(old, event, max);
        if (next != null) {
            jobs.put(event.jobId(), next);
        }
        return true;
    }

    /**
     * The job after an event that brings its newest epoch to {@code max}; {@code old} (null for a job not seen before)
     * where the event changes nothing.
     */
    private static Job next(Job old, JobEvent event, int max) {
        boolean cancelled = old != null && old.status() == Status.CANCELLED;
        int granted = old == null ? 0 : old.grantedEpoch();
        if (event instanceof JobRequested r) {
            return cancelled ? old : requested(old, r, max, granted);
        } else if (event instanceof JobAssigned a) {
            return cancelled ? old : assigned(old, a, max);
        } else if (event instanceof JobLeaseExpired x) {
            return endsCurrentGrant(old, x) ? reopened(old, max, granted) : old;
        } else if (event instanceof JobCancelled c) {
            return cancelled(old, c, max, granted);
        }
        return old;
    }

    private static Job requested(Job old, JobRequested r, int max, int granted) {
        // A request of a job already open is the same offer (e.g. the command side offering again after the
        // lease expiry that already reopened it); one of an assigned job is a new offer.
        int offer = old == null ? 1 : old.status() == Status.OPEN ? old.offer() : old.offer() + 1;
        return new Job(
                r.jobId(),
                r.pool(),
                r.spec(),
                Status.OPEN,
                offer,
                null,
                null,
                old == null ? 0 : old.leaseEpoch(),
                max,
                granted);
    }

    private static Job assigned(Job old, JobAssigned a, int max) {
        return new Job(
                a.jobId(),
                old == null ? null : old.pool(),
                old == null ? null : old.spec(),
                Status.ASSIGNED,
                old == null ? 0 : old.offer(),
                a.runId(),
                a.agentId(),
                a.leaseEpoch(),
                max,
                a.leaseEpoch());
    }

    /** Whether the expiry is that of the job's current grant. */
    private static boolean endsCurrentGrant(Job old, JobLeaseExpired x) {
        return old != null
                && old.status() == Status.ASSIGNED
                && old.leaseEpoch() == x.leaseEpoch()
                && x.runId().equals(old.runId());
    }

    private static Job reopened(Job old, int max, int granted) {
        return new Job(
                old.jobId(),
                old.pool(),
                old.spec(),
                Status.OPEN,
                old.offer() + 1,
                null,
                null,
                old.leaseEpoch(),
                max,
                granted);
    }

    private static Job cancelled(Job old, JobCancelled c, int max, int granted) {
        return new Job(
                c.jobId(),
                old == null ? null : old.pool(),
                old == null ? null : old.spec(),
                Status.CANCELLED,
                old == null ? 0 : old.offer(),
                null,
                null,
                old == null ? 0 : old.leaseEpoch(),
                max,
                granted);
    }

    /** Why a signed record cannot be a command the command side made now, given what it said before; null if it can. */
    private static String refusal(Job old, JobEvent event, int epoch) {
        if (event instanceof JobRequested r) {
            if (old.spec() != null
                    && (!old.spec().equals(r.spec()) || !old.pool().equals(r.pool()))) {
                return "its pool or spec differs from the job's first request";
            }
            if (epoch < old.maxEpoch() || epoch <= old.grantedEpoch()) {
                return "an offer older than epoch " + Math.max(old.maxEpoch(), old.grantedEpoch()) + " already seen";
            }
        } else if (event instanceof JobAssigned) {
            if (epoch <= old.grantedEpoch() || epoch < old.maxEpoch()) {
                return "not newer than epoch " + Math.max(old.maxEpoch(), old.grantedEpoch()) + " already seen";
            }
        } else if (event instanceof JobLeaseExpired && epoch < old.maxEpoch()) {
            return "older than epoch " + old.maxEpoch() + " already seen";
        }
        return null;
    }

    Optional<Job> job(UUID jobId) {
        return Optional.ofNullable(jobs.get(jobId));
    }

    /** Open jobs of a pool, oldest request first. */
    List<Job> open(String pool) {
        return jobs.values().stream()
                .filter(j -> j.status() == Status.OPEN && pool.equals(j.pool()) && j.spec() != null)
                .toList();
    }
}
