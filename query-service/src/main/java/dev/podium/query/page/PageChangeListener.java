package dev.podium.query.page;

import dev.podium.events.store.PageChannel;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Hears ingest's announcements of changed benchmarks ({@link PageChannel}) on a connection of its own and drops those
 * pages from the {@link PageCache}. While the connection is down no page is kept, so no replica serves a page older
 * than the last commit it could not hear of.
 */
@ApplicationScoped
public class PageChangeListener {

    private static final Logger LOG = Logger.getLogger(PageChangeListener.class);

    private final AgroalDataSource dataSource;
    private final PageCache cache;
    private Connection connection;

    public PageChangeListener(AgroalDataSource dataSource, PageCache cache) {
        this.dataSource = dataSource;
        this.cache = cache;
    }

    @Scheduled(
            every = "${podium.query.cache.poll:20ms}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = CacheOff.class)
    synchronized void poll() {
        try {
            if (connection == null) {
                connect();
            }
            PGNotification[] heard = connection.unwrap(PGConnection.class).getNotifications(1);
            if (heard != null && heard.length > 0) {
                Set<String> benchmarks = new HashSet<>();
                for (PGNotification n : heard) {
                    benchmarks.add(n.getParameter());
                }
                cache.changed(benchmarks);
            }
        } catch (SQLException e) {
            LOG.warnf(
                    "page changes not heard (%s): pages are rendered on every request until they are", e.getMessage());
            disconnect();
        }
    }

    private void connect() throws SQLException {
        Connection c = dataSource.getConnection();
        try (Statement s = c.createStatement()) {
            s.execute("LISTEN " + PageChannel.NAME);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        connection = c;
        cache.listening(true);
    }

    private synchronized void disconnect() {
        cache.listening(false);
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debugf("closing the listening connection: %s", e.getMessage());
            }
            connection = null;
        }
    }

    void stop(@Observes ShutdownEvent event) {
        disconnect();
    }

    /** Skips polling when the cache is switched off, and until the warm-up's requests are done (none is kept). */
    @ApplicationScoped
    public static class CacheOff implements Scheduled.SkipPredicate {

        private final PageCache cache;
        private final Warmup warmup;

        public CacheOff(PageCache cache, Warmup warmup) {
            this.cache = cache;
            this.warmup = warmup;
        }

        @Override
        public boolean test(ScheduledExecution execution) {
            return !cache.enabled() || !warmup.done();
        }
    }
}
