package dev.podium.ingest.command;

import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
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
    private volatile boolean active;

    public JobTimers(FleetCommands fleet) {
        this.fleet = fleet;
    }

    /** Ticks do nothing until the service's lifecycle starts the command side ({@code podium.ingest.jobs.enabled}). */
    public void start() {
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
        if (active) {
            tick("lease reaper", fleet::reapExpiredLeases);
        }
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
