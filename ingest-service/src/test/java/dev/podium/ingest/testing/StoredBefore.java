package dev.podium.ingest.testing;

import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import javax.sql.DataSource;

/** Appends an event straight to event_store, as one stored before a rule that would now refuse it. */
public final class StoredBefore {

    private static final EventCodec CODEC = new EventCodec();

    private StoredBefore() {}

    public static void append(DataSource dataSource, Envelope e, String writer) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("""
                INSERT INTO event_store (event_id, stream_id, seq, type, schema_version, writer, occurred_at, payload,
                                         payload_hash)
                VALUES (?, ?, ?, ?, 1, ?, ?, ?::jsonb, 'stored-before-the-rule')""")) {
            ps.setObject(1, e.eventId());
            ps.setString(2, e.streamId());
            ps.setLong(3, e.seq());
            ps.setString(4, e.type().name());
            ps.setString(5, writer);
            ps.setObject(6, Timestamp.from(e.occurredAt()));
            ps.setString(7, CODEC.mapper().writeValueAsString(e.payload()));
            ps.executeUpdate();
        }
    }
}
