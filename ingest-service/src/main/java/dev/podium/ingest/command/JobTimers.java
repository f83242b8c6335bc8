package dev.podium.ingest.command;

import dev.podium.ingest.config.IngestConfig;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.jboss.logging.Logger;

/**
 * The lease reaper and the campaign schedule, each on its own interval (quarkus-scheduler), each in a transaction of its
 * own ({@link FleetCommands}' methods are {@code @Transactional}); a failed tick rolls back and is tried again at the next.
 */
@ApplicationScoped
public class JobTimers {

    private static final Logger LOG = Logger.getLogger(JobTimers.class);

    private final FleetCommands fleet;
    private final Duration lease;
    private volatile boolean active;
    private volatile long startedAt;
    private volatile BooleanSupplier heartbeatsCaughtUp = () -> false;
    private volatile boolean reaping;

    public JobTimers(FleetCommands fleet, IngestConfig config) {
        this.fleet = fleet;
        this.lease = config.jobs().leaseDuration();
    }

    /**
     * Ticks do nothing until the service's lifecycle starts the command side ({@code podium.ingest.jobs.enabled}); the
     * reaper waits longer (see {@link #mayReap}) for {@code heartbeatsCaughtUp}, the heartbeat consumer's readiness.
     */
    public void start(BooleanSupplier heartbeatsCaughtUp) {
        this.heartbeatsCaughtUp = heartbeatsCaughtUp;
        startedAt = System.nanoTime();
        reaping = false;
        active = true;
    }

    public void stop() {
        active = false;
    }

    @Scheduled(
            identity = "lease-reaper",
            every = "${podium.ingest.jobs.reaper-interval}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void reapExpiredLeases() {
        if (active && mayReap()) {
            tick("lease reaper", fleet::reapExpiredLeases);
        }
    }

    /**
     * After a start, nothing is expired until one lease has passed, so that every live run has sent a heartbeat since,
     * and the heartbeats that waited on their topic while ingest was down have been read: leases that ran out during
     * an outage are renewed before the reaper looks, however long the outage.
     */
    private boolean mayReap() {
        if (!reaping && System.nanoTime() - startedAt >= lease.toNanos() && heartbeatsCaughtUp.getAsBoolean()) {
            reaping = true;
            LOG.infof("lease reaper starts: %s since start and the heartbeats caught up", lease);
        }
        return reaping;
    }

    @Scheduled(
            identity = "campaign-schedule",
            every = "${podium.ingest.jobs.schedule-interval}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void issueDueCampaigns() {
        if (active) {
            tick("campaign schedule", fleet::issueDueCampaigns);
        }
    }

    private static void tick(String what, IntSupplier work) {
        try {
            work.getAsInt();
        } catch (RuntimeException e) {
            LOG.warnf(e, "%s failed; tried again at its next interval", what);
        }
    }
}
