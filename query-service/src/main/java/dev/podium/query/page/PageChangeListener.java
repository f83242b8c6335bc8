package dev.podium.query.page;

import dev.podium.events.store.PageChannel;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Hears ingest's announcements of changed pages ({@link PageChannel}) on a connection of its own and drops those pages
 * from the {@link PageCache}. It waits on the connection's socket, so a change is heard as soon as its transaction
 * commits (polling every 20 ms made a page stale for 10 ms on average after each commit). While the connection is down
 * no page is kept, so no replica serves a page older than the last commit it could not hear of.
 */
@ApplicationScoped
public class PageChangeListener {

    private static final Logger LOG = Logger.getLogger(PageChangeListener.class);
    /** How long one wait for notifications may block: how soon the thread sees that it must stop. */
    private static final int WAIT_MILLIS = 500;
    /** The pause before connecting again after the connection failed. */
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final AgroalDataSource dataSource;
    private final PageCache cache;
    private final Warmup warmup;
    private volatile boolean running;
    private Thread thread;
    private Connection connection;

    public PageChangeListener(AgroalDataSource dataSource, PageCache cache, Warmup warmup) {
        this.dataSource = dataSource;
        this.cache = cache;
        this.warmup = warmup;
    }

    void start(@Observes StartupEvent event) {
        if (!cache.enabled()) {
            return;
        }
        running = true;
        thread = new Thread(this::listen, "podium-page-changes");
        thread.setDaemon(true);
        thread.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.join(2L * WAIT_MILLIS);
        }
    }

    private void listen() {
        try {
            // The warm-up's requests are rendered, never kept; listening starts after them.
            warmup.awaitDone();
            while (running) {
                if (!receive()) {
                    Thread.sleep(RETRY.toMillis());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            disconnect();
        }
    }

    /** Waits for one set of notifications and drops their pages; false when the connection failed. */
    private boolean receive() {
        try {
            if (connection == null) {
                connect();
            }
            PGNotification[] heard = connection.unwrap(PGConnection.class).getNotifications(WAIT_MILLIS);
            if (heard != null && heard.length > 0) {
                Set<String> changed = new HashSet<>();
                for (PGNotification n : heard) {
                    changed.add(n.getParameter());
                }
                cache.changed(changed);
            }
            return true;
        } catch (SQLException e) {
            LOG.warnf(
                    "page changes not heard (%s): pages are rendered on every request until they are", e.getMessage());
            disconnect();
            return false;
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

    private void disconnect() {
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
}
