package dev.podium.ingest.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * {@code rejected_event}: one row per refused record of one incarnation of a topic (its id, partition and offset), however
 * often the record is read again, and one more when the same offsets come round again in a recreated topic.
 */
@ApplicationScoped
public class RejectedStore {

    /** A refused record, what is kept of its bytes, and its signature header as received (for a redrive). */
    public record Rejection(String topic, String topicId, int partition, long offset, String reason, String keyId,
            String eventId, String streamId, RecordCopy copy, String signature) {
    }

    /** Inserts the rows not recorded yet; the number of new rows. */
    public int record(Connection c, List<Rejection> rejections) throws SQLException {
        if (rejections.isEmpty()) {
            return 0;
        }
        int n = rejections.size();
        Object[] topics = new Object[n], topicIds = new Object[n], partitions = new Object[n], offsets = new Object[n],
                reasons = new Object[n], keys = new Object[n], events = new Object[n], streams = new Object[n],
                sizes = new Object[n], hashes = new Object[n], truncated = new Object[n], signatures = new Object[n];
        Object[] records = new Object[n];
        for (int i = 0; i < n; i++) {
            Rejection r = rejections.get(i);
            topics[i] = r.topic();
            topicIds[i] = r.topicId();
            partitions[i] = r.partition();
            offsets[i] = r.offset();
            reasons[i] = clip(r.reason(), 4000);
            keys[i] = clip(r.keyId(), 200);
            events[i] = clip(r.eventId(), 200);
            streams[i] = clip(r.streamId(), 400);
            sizes[i] = r.copy().originalBytes();
            hashes[i] = r.copy().sha256();
            truncated[i] = r.copy().truncated();
            signatures[i] = clip(r.signature(), 256);
            records[i] = r.copy().bytes() == null ? null : "\\x" + java.util.HexFormat.of().formatHex(r.copy().bytes());
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO rejected_event (topic, topic_id, kafka_partition, kafka_offset, reason, key_id, event_id,
                                            stream_id, record, record_bytes, record_sha256, record_truncated, signature)
                SELECT t, ti, p, o, r, k, e, s, b::bytea, n, h, tr, g
                FROM unnest(?::text[], ?::text[], ?::int[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[],
                            ?::text[], ?::int[], ?::text[], ?::bool[], ?::text[])
                     WITH ORDINALITY AS x(t, ti, p, o, r, k, e, s, b, n, h, tr, g, ord)
                ORDER BY ord
                ON CONFLICT (topic, topic_id, kafka_partition, kafka_offset) DO NOTHING""")) {
            ps.setArray(1, c.createArrayOf("text", topics));
            ps.setArray(2, c.createArrayOf("text", topicIds));
            ps.setArray(3, c.createArrayOf("int", partitions));
            ps.setArray(4, c.createArrayOf("bigint", offsets));
            ps.setArray(5, c.createArrayOf("text", reasons));
            ps.setArray(6, c.createArrayOf("text", keys));
            ps.setArray(7, c.createArrayOf("text", events));
            ps.setArray(8, c.createArrayOf("text", streams));
            ps.setArray(9, c.createArrayOf("text", records));
            ps.setArray(10, c.createArrayOf("int", sizes));
            ps.setArray(11, c.createArrayOf("text", hashes));
            ps.setArray(12, c.createArrayOf("bool", truncated));
            ps.setArray(13, c.createArrayOf("text", signatures));
            return ps.executeUpdate();
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
