package dev.podium.ingest.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code rejected_event} as the operator sees it: pages of refusals with a bounded view of each record (a prefix, its
 * size and a hash, never the whole bytes), one row with its bytes for a redrive, and what a redrive did.
 */
@ApplicationScoped
public class RejectedRows {

    /** Bytes of a record shown in a list: enough to recognise it, never a whole record. */
    public static final int PREFIX_BYTES = 256;

    /** What may narrow a list: a topic, a prefix of the reason ({@code "invalid:"}, {@code "not the writer"}). */
    public record Filter(Optional<String> topic, Optional<String> reasonPrefix) {}

    /**
     * One refusal in a list. {@code recordBytes} is the size the record had; {@code keptBytes} what is kept of it (less
     * when only a prefix was kept, and then it cannot be redriven); {@code sha256} is of the bytes kept.
     */
    public record Listed(
            long id,
            String topic,
            int partition,
            long offset,
            String reason,
            String keyId,
            String eventId,
            String streamId,
            int recordBytes,
            int keptBytes,
            byte[] prefix,
            String sha256,
            Instant rejectedAt,
            Instant redrivenAt,
            String redriveOutcome,
            String redriveReason) {}

    /** A refusal with what a redrive feeds back: the bytes and the signature headers as received. */
    public record Redrivable(
            long id,
            String topic,
            int partition,
            long offset,
            byte[] record,
            int recordBytes,
            String keyId,
            String signature) {

        /** Whether the whole record was kept: a prefix alone can never be stored. */
        public boolean complete() {
            return record != null && record.length == recordBytes;
        }
    }

    /** Up to {@code limit} refusals with an id above {@code after}, in id order. */
    public List<Listed> page(Connection c, Filter filter, long after, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, topic, kafka_partition, kafka_offset, reason, key_id, event_id, stream_id, record_bytes,
                       coalesce(octet_length(record), 0), substring(record FROM 1 FOR ?), encode(sha256(record), 'hex'),
                       rejected_at, redriven_at, redrive_outcome, redrive_reason
                FROM rejected_event
                WHERE id > ? AND (?::text IS NULL OR topic = ?) AND (?::text IS NULL OR starts_with(reason, ?))
                ORDER BY id
                LIMIT ?""")) {
            ps.setInt(1, PREFIX_BYTES);
            ps.setLong(2, after);
            ps.setString(3, filter.topic().orElse(null));
            ps.setString(4, filter.topic().orElse(null));
            ps.setString(5, filter.reasonPrefix().orElse(null));
            ps.setString(6, filter.reasonPrefix().orElse(null));
            ps.setInt(7, limit);
            List<Listed> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Listed(
                            rs.getLong(1),
                            rs.getString(2),
                            rs.getInt(3),
                            rs.getLong(4),
                            rs.getString(5),
                            rs.getString(6),
                            rs.getString(7),
                            rs.getString(8),
                            rs.getInt(9),
                            rs.getInt(10),
                            rs.getBytes(11),
                            rs.getString(12),
                            instant(rs.getTimestamp(13)),
                            instant(rs.getTimestamp(14)),
                            rs.getString(15),
                            rs.getString(16)));
                }
            }
            return out;
        }
    }

    public Optional<Redrivable> forRedrive(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, topic, kafka_partition, kafka_offset, record, record_bytes, key_id, signature
                FROM rejected_event WHERE id = ?""")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Redrivable(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getInt(3),
                        rs.getLong(4),
                        rs.getBytes(5),
                        rs.getInt(6),
                        rs.getString(7),
                        rs.getString(8)));
            }
        }
    }

    /** Records what the last redrive of a row did; the row's own reason (why it was first refused) stays. */
    public void redriven(Connection c, long id, String outcome, String reason) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE rejected_event SET redriven_at = clock_timestamp(), redrive_outcome = ?, redrive_reason = ?
                WHERE id = ?""")) {
            ps.setString(1, outcome);
            ps.setString(2, RejectedStore.clip(reason, 4000));
            ps.setLong(3, id);
            ps.executeUpdate();
        }
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
