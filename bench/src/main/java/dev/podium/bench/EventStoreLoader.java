package dev.podium.bench;

import dev.podium.events.Envelope;
import dev.podium.events.codec.EventCodec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.temporal.ChronoUnit;

/**
 * Stores signed events in {@code event_store} as ingest-service would have (same columns, the record's content hash,
 * the signing key's id), in batched transactions, without projecting them: a rebuild then builds the read models.
 */
final class EventStoreLoader implements AutoCloseable {

    private static final int BATCH = 5000;

    /** An event ready to insert: its payload's JSON and the content hash of its record, computed off the writer. */
    record Row(Envelope envelope, String payloadJson, String hash) {}

    private final Connection connection;
    private final PreparedStatement insert;
    private final EventCodec codec;
    private final String keyId;
    private long stored;

    EventStoreLoader(String jdbc, String keyId, EventCodec codec) throws SQLException {
        this.connection = Db.connect(jdbc + (jdbc.contains("?") ? "&" : "?") + "reWriteBatchedInserts=true");
        this.connection.setAutoCommit(false);
        this.insert = connection.prepareStatement("""
                INSERT INTO event_store (event_id, stream_id, seq, type, schema_version, writer, key_id, occurred_at,
                                         kafka_topic, kafka_partition, kafka_offset, payload, payload_hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'podium.events', 0, ?, ?::jsonb, ?)""");
        this.codec = codec;
        this.keyId = keyId;
    }

    static Row row(ResultEvents.Signed s, EventCodec codec) {
        try {
            return new Row(
                    s.envelope(),
                    codec.mapper().writeValueAsString(s.envelope().payload()),
                    EventCodec.contentHash(s.value()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    void add(ResultEvents.Signed s) throws Exception {
        add(row(s, codec));
    }

    void add(Row row) throws SQLException {
        Envelope e = row.envelope();
        insert.setObject(1, e.eventId());
        insert.setString(2, e.streamId());
        insert.setLong(3, e.seq());
        insert.setString(4, e.type().name());
        insert.setInt(5, e.schemaVersion());
        insert.setString(6, e.agentId());
        insert.setString(7, keyId);
        insert.setTimestamp(8, Timestamp.from(e.occurredAt().truncatedTo(ChronoUnit.MICROS)));
        insert.setLong(9, stored++);
        insert.setString(10, row.payloadJson());
        insert.setString(11, row.hash());
        insert.addBatch();
        if (stored % BATCH == 0) {
            flush();
        }
    }

    long stored() {
        return stored;
    }

    private void flush() throws SQLException {
        insert.executeBatch();
        connection.commit();
    }

    /** Commits what is left and analyzes the store, so that the rebuild's reads of it are planned on its real size. */
    @Override
    public void close() throws SQLException {
        try (connection;
                insert) {
            flush();
            connection.setAutoCommit(true);
            try (var s = connection.createStatement()) {
                s.execute("VACUUM ANALYZE event_store");
            }
        }
    }
}
