package dev.podium.agent.daemon;

import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobEvent;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.JobSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
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
 */
final class JobBoard {

    /** Event ids remembered for deduplication; the oldest are forgotten beyond this. */
    static final int REMEMBERED_EVENT_IDS = 200_000;

    enum Status { OPEN, ASSIGNED, CANCELLED }

    /** One job: its offer, and its grant while assigned. {@code offer} counts the times it was opened. */
    record Job(UUID jobId, String pool, JobSpec spec, Status status, int offer, UUID runId, String agentId, int leaseEpoch) {
    }

    private final Map<UUID, Job> jobs = new LinkedHashMap<>();
    private final Set<UUID> seen = Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Boolean> eldest) {
            return size() > REMEMBERED_EVENT_IDS;
        }
    });

    /**
     * Applies an event; false when its event id was applied before. An assignment, expiry or cancel of a job never
     * requested here (its request is older than the topic's retention) is still recorded, without a spec.
     */
    boolean apply(UUID eventId, JobEvent event) {
        if (!seen.add(eventId)) {
            return false;
        }
        Job old = jobs.get(event.jobId());
        boolean cancelled = old != null && old.status() == Status.CANCELLED;
        Job next = old;
        if (event instanceof JobRequested r) {
            if (!cancelled) {
                // A request of a job already open is the same offer (e.g. the command side offering again after the
                // lease expiry that already reopened it); one of an assigned job is a new offer.
                int offer = old == null ? 1 : old.status() == Status.OPEN ? old.offer() : old.offer() + 1;
                next = new Job(r.jobId(), r.pool(), r.spec(), Status.OPEN, offer, null, null, old == null ? 0 : old.leaseEpoch());
            }
        } else if (event instanceof JobAssigned a) {
            if (!cancelled) {
                next = new Job(a.jobId(), old == null ? null : old.pool(), old == null ? null : old.spec(), Status.ASSIGNED,
                        old == null ? 0 : old.offer(), a.runId(), a.agentId(), a.leaseEpoch());
            }
        } else if (event instanceof JobLeaseExpired x) {
            if (old != null && old.status() == Status.ASSIGNED && old.leaseEpoch() == x.leaseEpoch()
                    && x.runId().equals(old.runId())) {
                next = new Job(old.jobId(), old.pool(), old.spec(), Status.OPEN, old.offer() + 1, null, null, old.leaseEpoch());
            }
        } else if (event instanceof JobCancelled c) {
            next = new Job(c.jobId(), old == null ? null : old.pool(), old == null ? null : old.spec(), Status.CANCELLED,
                    old == null ? 0 : old.offer(), null, null, old == null ? 0 : old.leaseEpoch());
        }
        if (next != null) {
            jobs.put(event.jobId(), next);
        }
        return true;
    }

    Optional<Job> job(UUID jobId) {
        return Optional.ofNullable(jobs.get(jobId));
    }

    /** Open jobs of a pool, oldest request first. */
    List<Job> open(String pool) {
        return jobs.values().stream().filter(j -> j.status() == Status.OPEN && pool.equals(j.pool()) && j.spec() != null)
                .toList();
    }
}
