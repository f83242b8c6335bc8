package dev.podium.ingest.command;

import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import org.jboss.logging.Logger;

/** The lease reaper and the campaign schedule, each on its own interval (quarkus-scheduler), each in a transaction of its own. */
@ApplicationScoped
public class JobTimers {

    private static final Logger LOG = Logger.getLogger(JobTimers.class);

    private interface Work {
        int run(Connection c) throws Exception;
    }

    private final AgroalDataSource dataSource;
    private final JobCommands jobs;
    private volatile boolean active;

    public JobTimers(AgroalDataSource dataSource, JobCommands jobs) {
        this.dataSource = dataSource;
        this.jobs = jobs;
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
            inTransaction("lease reaper", jobs::reapExpiredLeases);
        }
    }

    @Scheduled(
            identity = "campaign-schedule",
            every = "${podium.ingest.jobs.schedule-interval}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void issueDueCampaigns() {
        if (active) {
            inTransaction("campaign schedule", jobs::issueDueCampaigns);
        }
    }

    private void inTransaction(String what, Work work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                work.run(c);
                c.commit();
            } catch (Exception e) {
                c.rollback();
                throw e;
            }
        } catch (Exception e) {
            LOG.warnf(e, "%s failed; tried again at its next interval", what);
        }
    }
}
