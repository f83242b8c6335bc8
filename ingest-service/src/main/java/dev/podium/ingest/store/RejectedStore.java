package dev.podium.ingest.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** {@code rejected_event}: one row per refused source offset, however often the record is read again. */
@ApplicationScoped
public class RejectedStore {

    /** A refused record with the bytes and the signature header as received (both for a redrive). */
    public record Rejection(String topic, int partition, long offset, String reason, String keyId, String eventId,
            String streamId, byte[] record, String signature) {
    }

    /** Inserts the rows not recorded yet; the number of new rows. */
    public int record(Connection c, List<Rejection> rejections) throws SQLException {
        if (rejections.isEmpty()) {
            return 0;
        }
        int n = rejections.size();
        Object[] topics = new Object[n], partitions = new Object[n], offsets = new Object[n], reasons = new Object[n],
                keys = new Object[n], events = new Object[n], streams = new Object[n], sizes = new Object[n],
                signatures = new Object[n];
        Object[] records = new Object[n];
        for (int i = 0; i < n; i++) {
            Rejection r = rejections.get(i);
            topics[i] = r.topic();
            partitions[i] = r.partition();
            offsets[i] = r.offset();
            reasons[i] = clip(r.reason(), 4000);
            keys[i] = clip(r.keyId(), 200);
            events[i] = clip(r.eventId(), 200);
            streams[i] = clip(r.streamId(), 400);
            sizes[i] = r.record() == null ? 0 : r.record().length;
            signatures[i] = clip(r.signature(), 256);
            records[i] = r.record() == null ? null : "\\x" + java.util.HexFormat.of().formatHex(r.record());
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO rejected_event (topic, kafka_partition, kafka_offset, reason, key_id, event_id, stream_id,
                                            record, record_bytes, signature)
                SELECT t, p, o, r, k, e, s, b::bytea, n, g
                FROM unnest(?::text[], ?::int[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[],
                            ?::text[])
                     WITH ORDINALITY AS x(t, p, o, r, k, e, s, b, n, g, ord)
                ORDER BY ord
                ON CONFLICT (topic, kafka_partition, kafka_offset) DO NOTHING""")) {
            ps.setArray(1, c.createArrayOf("text", topics));
            ps.setArray(2, c.createArrayOf("int", partitions));
            ps.setArray(3, c.createArrayOf("bigint", offsets));
            ps.setArray(4, c.createArrayOf("text", reasons));
            ps.setArray(5, c.createArrayOf("text", keys));
            ps.setArray(6, c.createArrayOf("text", events));
            ps.setArray(7, c.createArrayOf("text", streams));
            ps.setArray(8, c.createArrayOf("text", records));
            ps.setArray(9, c.createArrayOf("int", sizes));
            ps.setArray(10, c.createArrayOf("text", signatures));
            return ps.executeUpdate();
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
