package dev.podium.ingest.dlq;

import dev.podium.ingest.config.IngestConfig;
import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
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
            long deleted = prune(config.maxAge(), config.maxBytes(), config.heldMaxBytesPerKey());
            if (deleted > 0) {
                LOG.infof(
                        "deleted %d rejected_event rows past %s or over %d bytes kept",
                        deleted, config.maxAge(), config.maxBytes());
            }
        } catch (SQLException e) {
            LOG.warn("pruning rejected_event failed; it is tried again at the next interval", e);
        }
    }

    /**
     * Rows retention may delete: all but the held ones (verified, over a budget or quota) not yet stored by a redrive,
     * which only their own key's cap removes, so that no flood of other refusals pushes them out.
     */
    private static final String UNHELD = "(NOT held OR redrive_outcome IN ('stored', 'duplicate'))";

    private static final String TOO_OLD = """
            SELECT id FROM rejected_event WHERE %s AND rejected_at < clock_timestamp() - make_interval(secs => ?)
            ORDER BY id LIMIT ?""".formatted(UNHELD);

    private static final String OVER_SIZE = """
            SELECT id FROM (SELECT id, sum(coalesce(octet_length(record), 0)) OVER (ORDER BY id DESC) AS newer
                            FROM rejected_event WHERE %s) t
            WHERE newer > ? ORDER BY id LIMIT ?""".formatted(UNHELD);

    private static final String HELD_OVER_SIZE = """
            SELECT id FROM (SELECT id, sum(coalesce(octet_length(record), 0))
                                OVER (PARTITION BY key_id ORDER BY id DESC) AS newer
                            FROM rejected_event WHERE NOT %s) t
            WHERE newer > ? ORDER BY id LIMIT ?""".formatted(UNHELD);

    /**
     * Deletes the rows older than {@code maxAge}, then the oldest while the kept copies exceed {@code maxBytes}, then
     * each key's oldest held rows while its held copies exceed {@code heldMaxBytesPerKey}.
     */
    public long prune(Duration maxAge, long maxBytes, long heldMaxBytesPerKey) throws SQLException {
        long deleted = 0;
        try (Connection c = dataSource.getConnection()) {
            deleted += deleteAll(c, TOO_OLD, maxAge.toSeconds());
            deleted += deleteAll(c, OVER_SIZE, maxBytes);
            deleted += deleteAll(c, HELD_OVER_SIZE, heldMaxBytesPerKey);
        }
        return deleted;
    }

    /** Deletes, a round at a time, the rows {@code ids} selects given its bound; the rows deleted. */
    private static long deleteAll(Connection c, String ids, long bound) throws SQLException {
        long deleted = 0;
        int n;
        do {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM rejected_event WHERE id IN (" + ids + ")")) {
                ps.setLong(1, bound);
                ps.setInt(2, ROUND);
                n = ps.executeUpdate();
            }
            deleted += n;
        } while (n == ROUND);
        return deleted;
    }
}
