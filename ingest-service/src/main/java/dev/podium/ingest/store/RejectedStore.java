package dev.podium.ingest.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;

/**
 * {@code rejected_event}: one row per refused record of one incarnation of a topic (its id, partition and offset), however
 * often the record is read again, and one more when the same offsets come round again in a recreated topic.
 */
@ApplicationScoped
public class RejectedStore {

    /** A refused record, what is kept of its bytes, and its signature header as received (for a redrive). */
    public record Rejection(
            String topic,
            String topicId,
            int partition,
            long offset,
            String reason,
            String keyId,
            String eventId,
            String streamId,
            RecordCopy copy,
            String signature,
            boolean held) {}

    /**
     * A {@code rejected_event} row as a rejection writes it: the untrusted strings clipped ({@link #clip}), the record's
     * kept bytes as bytea hex text ({@code \\x...}).
     */
    private record RejectedRow(
            String topic,
            String topicId,
            int kafkaPartition,
            long kafkaOffset,
            String reason,
            String keyId,
            String eventId,
            String streamId,
            String record,
            int recordBytes,
            String recordSha256,
            boolean recordTruncated,
            String signature,
            boolean held) {

        static RejectedRow of(Rejection r) {
            byte[] kept = r.copy().bytes();
            return new RejectedRow(
                    r.topic(),
                    r.topicId(),
                    r.partition(),
                    r.offset(),
                    clip(r.reason(), 4000),
                    clip(r.keyId(), 200),
                    clip(r.eventId(), 200),
                    clip(r.streamId(), 400),
                    kept == null ? null : "\\x" + HexFormat.of().formatHex(kept),
                    r.copy().originalBytes(),
                    r.copy().sha256(),
                    r.copy().truncated(),
                    clip(r.signature(), 256),
                    r.held());
        }
    }

    private static final Columns<RejectedRow> REJECTED = Columns.of(RejectedRow.class);

    /** The new rows, and each counted in rejected_count (V94), which outlives them. */
    private static final String INSERT = """
            WITH inserted AS (
                INSERT INTO rejected_event (topic, topic_id, kafka_partition, kafka_offset, reason, key_id, event_id,
                                            stream_id, record, record_bytes, record_sha256, record_truncated, signature,
                                            held)
                SELECT topic, topic_id, kafka_partition, kafka_offset, reason, key_id, event_id, stream_id,
                       record::bytea, record_bytes, record_sha256, record_truncated, signature, held
                FROM %s
                ORDER BY ord
                ON CONFLICT (topic, topic_id, kafka_partition, kafka_offset) DO NOTHING
                RETURNING topic, reason, key_id, record_bytes),
            counted AS (
                INSERT INTO rejected_count AS t (day, topic, reason, key_id, records, bytes)
                SELECT current_date, i.topic, split_part(i.reason, ':', 1), coalesce(k.key_id, '(unknown)'), count(*),
                       sum(i.record_bytes)
                FROM inserted i LEFT JOIN agent_key k ON k.key_id = i.key_id
                GROUP BY 1, 2, 3, 4
                ON CONFLICT (day, topic, reason, key_id)
                DO UPDATE SET records = t.records + excluded.records, bytes = t.bytes + excluded.bytes)
            SELECT count(*) FROM inserted""".formatted(REJECTED.unnestWithOrdinality("x"));

    /** Inserts the rows not recorded yet, and counts them; the number of new rows. */
    public int record(Connection c, List<Rejection> rejections) throws SQLException {
        if (rejections.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            REJECTED.bind(ps, 1, rejections.stream().map(RejectedRow::of).toList());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Notes on the row of a refused record why its copy to the DLQ failed. */
    public void dlqFailed(Connection c, String topic, String topicId, int partition, long offset, String error)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE rejected_event SET dlq_error = ?
                WHERE topic = ? AND topic_id = ? AND kafka_partition = ? AND kafka_offset = ?""")) {
            ps.setString(1, clip(error, 1000));
            ps.setString(2, topic);
            ps.setString(3, topicId);
            ps.setInt(4, partition);
            ps.setLong(5, offset);
            ps.executeUpdate();
        }
    }

    /**
     * Strings from records are untrusted: PostgreSQL text refuses {@code \u0000}, and a reason quoting a field could be
     * long; both are made safe here so that no rejected record can fail the insert of its batch.
     */
    static String clip(String s, int max) {
        if (s == null) {
            return null;
        }
        String clean = s.replace('\u0000', '\uFFFD');
        return clean.length() > max ? clean.substring(0, max) + "…" : clean;
    }
}
