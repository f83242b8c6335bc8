package dev.podium.ingest.command;

import dev.podium.ingest.config.HistoryConfig;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * POSTs queued regressions ({@link RegressionOutbox}) to {@code podium.history.webhook.url}, one request each, with the
 * notice's id in the body and in the {@code Podium-Delivery-Id} header. A row is marked delivered in the transaction that
 * sent it, after a 2xx answer; any other answer, or none, schedules a retry with a doubling backoff. Rows are taken with
 * {@code FOR UPDATE SKIP LOCKED}, so several ingest instances never send the same row at once; a crash between the answer
 * and the commit sends it again: at least once, with the same id.
 */
@ApplicationScoped
public class RegressionWebhook {

    public static final String DELIVERY_HEADER = "Podium-Delivery-Id";
    private static final Logger LOG = Logger.getLogger(RegressionWebhook.class);
    private static final int BATCH = 50;

    private final HistoryConfig config;
    private final AgroalDataSource dataSource;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public RegressionWebhook(HistoryConfig config, AgroalDataSource dataSource) {
        this.config = config;
        this.dataSource = dataSource;
    }

    void announce(@Observes StartupEvent e) {
        config.webhook()
                .url()
                .ifPresent(url -> LOG.infof(
                        "regression webhook on: %s every %s",
                        url.getHost(), config.webhook().interval()));
    }

    /** Without a URL nothing is queued, so there is nothing to send. */
    @Scheduled(
            identity = "regression-webhook",
            every = "${podium.history.webhook.interval}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void deliverDue() {
        config.webhook().url().ifPresent(url -> {
            try {
                while (deliver(url) == BATCH) {
                    // a full batch: more are due
                }
            } catch (SQLException | RuntimeException ex) {
                LOG.warn("regression webhook delivery failed; the rows stay queued", ex);
            }
        });
    }

    private record Due(UUID id, String payload, int attempts) {}

    /** Sends the rows that are due; the number taken. */
    int deliver(URI url) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                List<Due> due = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("""
                        SELECT id, payload::text, attempts FROM regression_delivery
                        WHERE delivered_at IS NULL AND next_attempt_at <= now()
                        ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED""")) {
                    ps.setInt(1, BATCH);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            due.add(new Due(rs.getObject(1, UUID.class), rs.getString(2), rs.getInt(3)));
                        }
                    }
                }
                for (Due d : due) {
                    String failure = send(url, d);
                    record(c, d, failure);
                }
                c.commit();
                return due.size();
            } catch (SQLException | RuntimeException ex) {
                c.rollback();
                throw ex;
            }
        }
    }

    /** Null when the receiver answered 2xx, else why not. */
    private String send(URI url, Due d) {
        try {
            HttpRequest request = HttpRequest.newBuilder(url)
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .header(DELIVERY_HEADER, d.id().toString())
                    .POST(HttpRequest.BodyPublishers.ofString(d.payload()))
                    .build();
            int status =
                    http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            return status / 100 == 2 ? null : "answered " + status;
        } catch (IOException e) {
            return "unreachable: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private void record(Connection c, Due d, String failure) throws SQLException {
        if (failure == null) {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE regression_delivery SET delivered_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ?")) {
                ps.setObject(1, d.id(), Types.OTHER);
                ps.executeUpdate();
            }
            return;
        }
        LOG.warnf("regression webhook: delivery %s %s; will retry", d.id(), failure);
        long backoff = Math.min(
                config.webhook().maxBackoff().toMillis(),
                config.webhook().backoff().toMillis() << Math.min(20, d.attempts()));
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE regression_delivery SET attempts = attempts + 1, last_error = ?, "
                        + "next_attempt_at = now() + ? * interval '1 millisecond' WHERE id = ?")) {
            ps.setString(1, failure.length() > 500 ? failure.substring(0, 500) : failure);
            ps.setLong(2, backoff);
            ps.setObject(3, d.id(), Types.OTHER);
            ps.executeUpdate();
        }
    }
}
