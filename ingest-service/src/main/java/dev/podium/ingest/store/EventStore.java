package dev.podium.ingest.store;

import dev.podium.events.Envelope;
import dev.podium.events.EventType;
import dev.podium.events.StreamId;
import dev.podium.events.codec.EventCodec;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Appends to {@code event_store}: one multi-row {@code INSERT ... ON CONFLICT DO NOTHING RETURNING} per batch, so no
 * unique violation can abort the batch; what was not inserted is then told apart as a duplicate (same bytes stored) or a
 * conflict (event id or stream seq taken by other content).
 */
@ApplicationScoped
public class EventStore {

    /** The {@code event_store} columns of a new event, but its payload, which is sent apart ({@link #jsonArray}). */
    private record EventRow(
            UUID eventId,
            String streamId,
            long seq,
            String type,
            int schemaVersion,
            String writer,
            String keyId,
            Instant occurredAt,
            String kafkaTopic,
            Integer kafkaPartition,
            Long kafkaOffset,
            String payloadHash) {

        static EventRow of(NewEvent e) {
            Envelope env = e.envelope();
            return new EventRow(
                    env.eventId(),
                    env.streamId(),
                    env.seq(),
                    env.type().name(),
                    env.schemaVersion(),
                    e.writer(),
                    e.keyId(),
                    env.occurredAt(),
                    e.topic(),
                    e.partition(),
                    e.offset(),
                    e.payloadHash());
        }
    }

    /** What identifies a stored event: its id, and its place in its stream. */
    private record EventIdentity(UUID eventId, String streamId, long seq) {}

    private static final Columns<EventRow> EVENT = Columns.of(EventRow.class);
    private static final Columns<EventIdentity> IDENTITY = Columns.of(EventIdentity.class);

    /**
     * Occurred-at instants are truncated, not rounded, to PostgreSQL's microseconds ({@link ArrayLiteral}): the
     * projections write the same instant.
     */
    private static final String INSERT = """
            INSERT INTO event_store (event_id, stream_id, seq, type, schema_version, writer, key_id, occurred_at,
                                     kafka_topic, kafka_partition, kafka_offset, payload, payload_hash)
            SELECT event_id, stream_id, seq, type, schema_version, writer, key_id, occurred_at, kafka_topic,
                   kafka_partition, kafka_offset, payload, payload_hash
            FROM ROWS FROM (unnest(%s), jsonb_array_elements(?::jsonb))
                 WITH ORDINALITY AS x(%s, payload, ord)
            ORDER BY ord
            ON CONFLICT DO NOTHING
            RETURNING position, event_id, stream_id, seq, payload_hash""".formatted(EVENT.parameters(), EVENT.names());

    /**
     * The stored events that share an id or a stream seq with the events given: the parameters are the columns of
     * {@link EventIdentity}, in its order.
     */
    private static final String TAKEN = """
            SELECT event_id, stream_id, seq, payload_hash FROM event_store
            WHERE event_id = ANY(?::uuid[])
               OR (stream_id, seq) IN (SELECT * FROM unnest(?::text[], ?::bigint[]))""";

    private record Row(UUID eventId, String streamId, long seq, String hash) {}

    private final EventCodec codec = new EventCodec();

    /** Appends in order; the result at index i belongs to {@code events.get(i)}. */
    public List<Appended> append(Connection c, List<NewEvent> events) throws SQLException {
        List<Appended> out = new ArrayList<>(events.size());
        if (events.isEmpty()) {
            return out;
        }
        Map<Row, Long> inserted = insert(c, events);
        List<Integer> notInserted = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            Envelope env = events.get(i).envelope();
            // remove(): of several identical records in one batch only the first was inserted.
            Long position = inserted.remove(new Row(
                    env.eventId(), env.streamId(), env.seq(), events.get(i).payloadHash()));
            out.add(position == null ? null : new Appended.Inserted(position));
            if (position == null) {
                notInserted.add(i);
            }
        }
        if (!notInserted.isEmpty()) {
            resolve(c, events, notInserted, out);
        }
        return out;
    }

    /** The rows inserted, and their positions. */
    private static Map<Row, Long> insert(Connection c, List<NewEvent> events) throws SQLException {
        Map<Row, Long> inserted = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            int next = EVENT.bind(ps, 1, events.stream().map(EventRow::of).toList());
            ps.setObject(next, jsonArray(events), Types.OTHER);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    inserted.put(
                            new Row(rs.getObject(2, UUID.class), rs.getString(3), rs.getLong(4), rs.getString(5)),
                            rs.getLong(1));
                }
            }
        }
        return inserted;
    }

    /**
     * The payloads, each already JSON, as one JSON array: nothing to escape, where a text-array literal escaped every
     * quote of every ~1 KB payload in Java (the writing thread's busiest loop) and PostgreSQL then unescaped it and
     * parsed each element as jsonb again.
     */
    private static String jsonArray(List<NewEvent> events) {
        int length = 2;
        for (NewEvent e : events) {
            length += e.payloadJson().length() + 1;
        }
        StringBuilder b = new StringBuilder(length).append('[');
        for (int i = 0; i < events.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(events.get(i).payloadJson());
        }
        return b.append(']').toString();
    }

    private void resolve(Connection c, List<NewEvent> events, List<Integer> indexes, List<Appended> out)
            throws SQLException {
        List<EventIdentity> given = new ArrayList<>(indexes.size());
        for (int i : indexes) {
            Envelope env = events.get(i).envelope();
            given.add(new EventIdentity(env.eventId(), env.streamId(), env.seq()));
        }
        Map<UUID, Row> byId = new HashMap<>();
        Map<String, Row> bySeq = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(TAKEN)) {
            IDENTITY.bind(ps, 1, given);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Row row = new Row(rs.getObject(1, UUID.class), rs.getString(2), rs.getLong(3), rs.getString(4));
                    byId.put(row.eventId(), row);
                    bySeq.put(row.streamId() + "#" + row.seq(), row);
                }
            }
        }
        for (int i : indexes) {
            NewEvent e = events.get(i);
            Envelope env = e.envelope();
            Row same = byId.get(env.eventId());
            Row taken = bySeq.get(env.streamId() + "#" + env.seq());
            if (same != null && Objects.equals(same.hash(), e.payloadHash())) {
                out.set(i, new Appended.Duplicate());
            } else if (same != null) {
                out.set(
                        i,
                        new Appended.Conflict(
                                "conflict: event_id " + env.eventId() + " is already stored with other content"));
            } else if (taken != null) {
                out.set(
                        i,
                        new Appended.Conflict("conflict: " + env.streamId() + " seq " + env.seq()
                                + " is already taken by event " + taken.eventId()));
            } else {
                // Not inserted and nothing in the way: cannot happen under the two unique keys; never dropped silently.
                throw new IllegalStateException("event " + env.eventId() + " was neither inserted nor in conflict");
            }
        }
    }

    /** The writer of each stream's first stored event, for the streams given. */
    public Map<String, String> firstWriters(Connection c, Collection<String> streamIds) throws SQLException {
        Map<String, String> out = new HashMap<>();
        if (streamIds.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT DISTINCT ON (stream_id) stream_id, writer FROM event_store
                WHERE stream_id = ANY(?) ORDER BY stream_id, position""")) {
            ps.setArray(1, c.createArrayOf("text", streamIds.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return out;
    }

    /** Up to {@code limit} stored events after {@code afterPosition}, in position order. */
    public List<StoredEvent> readAfter(Connection c, long afterPosition, int limit) throws SQLException {
        List<StoredEvent> out = new ArrayList<>(limit);
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT position, event_id, type, schema_version, stream_id, seq, writer, occurred_at, payload::text
                FROM event_store WHERE position > ? ORDER BY position LIMIT ?""")) {
            ps.setLong(1, afterPosition);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    EventType type = EventType.valueOf(rs.getString(3));
                    String stream = rs.getString(5);
                    boolean agentStream = StreamId.parse(stream)
                            .map(s -> s.kind().writtenByAgent())
                            .orElse(false);
                    out.add(new StoredEvent(
                            rs.getLong(1),
                            new Envelope(
                                    rs.getObject(2, UUID.class),
                                    type,
                                    rs.getInt(4),
                                    stream,
                                    rs.getLong(6),
                                    agentStream ? rs.getString(7) : null,
                                    rs.getTimestamp(8).toInstant(),
                                    codec.payloadFromJson(type, rs.getString(9)))));
                }
            }
        }
        return out;
    }
}
