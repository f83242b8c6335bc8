package dev.podium.ingest.command;

import dev.podium.ingest.config.IngestConfig;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/** The lease reaper and the campaign schedule, each on its own interval, each in a transaction of its own. */
@ApplicationScoped
public class JobTimers {

    private static final Logger LOG = Logger.getLogger(JobTimers.class);

    private interface Work {
        int run(Connection c) throws Exception;
    }

    private final IngestConfig config;
    private final AgroalDataSource dataSource;
    private final JobCommands jobs;
    private ScheduledExecutorService timer;

    public JobTimers(IngestConfig config, AgroalDataSource dataSource, JobCommands jobs) {
        this.config = config;
        this.dataSource = dataSource;
        this.jobs = jobs;
    }

    public synchronized void start() {
        if (timer != null) {
            return;
        }
        timer = BackgroundTimer.named("podium-ingest-jobs");
        long reap = config.jobs().reaperInterval().toMillis();
        long schedule = config.jobs().scheduleInterval().toMillis();
        timer.scheduleWithFixedDelay(() -> inTransaction("lease reaper", jobs::reapExpiredLeases), reap, reap,
                TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(() -> inTransaction("campaign schedule", jobs::issueDueCampaigns), schedule,
                schedule, TimeUnit.MILLISECONDS);
    }

    public synchronized void stop() {
        if (timer == null) {
            return;
        }
        timer.shutdown();
        try {
            timer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer = null;
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
