package dev.podium.ingest.dlq;

import dev.podium.ingest.config.IngestConfig;
import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Keeps {@code rejected_event} within its age and size ({@link IngestConfig.Rejected}): a flood of refused records costs
 * a bounded amount of disk, and what it was stays counted in {@code rejected_count}. Deletes in rounds of
 * {@value #ROUND} rows, each its own statement, so that it never holds many locks or a long transaction.
 */
@ApplicationScoped
public class RejectedRetention {

    static final int ROUND = 10_000;

    private static final Logger LOG = Logger.getLogger(RejectedRetention.class);

    private final AgroalDataSource dataSource;
    private final IngestConfig.Rejected config;

    public RejectedRetention(AgroalDataSource dataSource, IngestConfig config) {
        this.dataSource = dataSource;
        this.config = config.rejected();
    }

    @Scheduled(
            identity = "rejected-retention",
            every = "${podium.ingest.rejected.retention-interval:10m}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void enforce() {
        try {
            long deleted = prune(config.maxAge(), config.maxBytes());
            if (deleted > 0) {
                LOG.infof(
                        "deleted %d rejected_event rows past %s or over %d bytes kept",
                        deleted, config.maxAge(), config.maxBytes());
            }
        } catch (SQLException e) {
            LOG.warn("pruning rejected_event failed; it is tried again at the next interval", e);
        }
    }

    /** Deletes the rows older than {@code maxAge}, then the oldest while the kept copies exceed {@code maxBytes}. */
    public long prune(Duration maxAge, long maxBytes) throws SQLException {
        long deleted = 0;
        try (Connection c = dataSource.getConnection()) {
            int n;
            do {
                n = deleteUpTo(c, """
                        SELECT max(id) FROM (SELECT id FROM rejected_event
                            WHERE rejected_at < clock_timestamp() - make_interval(secs => ?) ORDER BY id LIMIT ?) t""", maxAge.toSeconds());
                deleted += n;
            } while (n == ROUND);
            do {
                n = deleteUpTo(c, """
                        SELECT max(id) FROM (SELECT id FROM (
                            SELECT id, sum(coalesce(octet_length(record), 0)) OVER (ORDER BY id DESC) AS newer
                            FROM rejected_event) t WHERE newer > ? ORDER BY id LIMIT ?) u""", maxBytes);
                deleted += n;
            } while (n == ROUND);
        }
        return deleted;
    }

    /** Deletes the rows up to the id {@code lastId} finds (given its bound and the round); the rows deleted. */
    private static int deleteUpTo(Connection c, String lastId, long bound) throws SQLException {
        long last;
        try (PreparedStatement ps = c.prepareStatement(lastId)) {
            ps.setLong(1, bound);
            ps.setInt(2, ROUND);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                last = rs.getLong(1);
                if (rs.wasNull()) {
                    return 0;
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM rejected_event WHERE id IN (SELECT id FROM rejected_event WHERE id <= ? ORDER BY id LIMIT ?)")) {
            ps.setLong(1, last);
            ps.setInt(2, ROUND);
            return ps.executeUpdate();
        }
    }
}
