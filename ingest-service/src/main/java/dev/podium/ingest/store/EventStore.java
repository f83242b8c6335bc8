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

    private static final String INSERT = """
            INSERT INTO event_store (event_id, stream_id, seq, type, schema_version, writer, key_id, occurred_at,
                                     kafka_topic, kafka_partition, kafka_offset, payload, payload_hash)
            SELECT e, s, q, t, v, w, k, o, kt, kp, ko, p, h
            FROM ROWS FROM (unnest(?::uuid[]), unnest(?::text[]), unnest(?::bigint[]), unnest(?::text[]),
                            unnest(?::int[]), unnest(?::text[]), unnest(?::text[]), unnest(?::timestamptz[]),
                            unnest(?::text[]), unnest(?::int[]), unnest(?::bigint[]), jsonb_array_elements(?::jsonb),
                            unnest(?::text[]))
                 WITH ORDINALITY AS x(e, s, q, t, v, w, k, o, kt, kp, ko, p, h, ord)
            ORDER BY ord
            ON CONFLICT DO NOTHING
            RETURNING position, event_id, stream_id, seq, payload_hash""";

    private record Row(UUID eventId, String streamId, long seq, String hash) {
    }

    private final EventCodec codec = new EventCodec();

    /** Appends in order; the result at index i belongs to {@code events.get(i)}. */
    public List<Appended> append(Connection c, List<NewEvent> events) throws SQLException {
        List<Appended> out = new ArrayList<>(events.size());
        if (events.isEmpty()) {
            return out;
        }
        int n = events.size();
        Object[] ids = new Object[n], streams = new Object[n], seqs = new Object[n], types = new Object[n],
                versions = new Object[n], writers = new Object[n], keys = new Object[n], occurred = new Object[n],
                topics = new Object[n], partitions = new Object[n], offsets = new Object[n], payloads = new Object[n],
                hashes = new Object[n];
        for (int i = 0; i < n; i++) {
            NewEvent e = events.get(i);
            Envelope env = e.envelope();
            ids[i] = env.eventId();
            streams[i] = env.streamId();
            seqs[i] = env.seq();
            types[i] = env.type().name();
            versions[i] = env.schemaVersion();
            writers[i] = e.writer();
            keys[i] = e.keyId();
            // Truncated, not rounded, to PostgreSQL's microseconds: the projections write the same instant (see Sql).
            occurred[i] = env.occurredAt().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
            topics[i] = e.topic();
            partitions[i] = e.partition();
            offsets[i] = e.offset();
            payloads[i] = e.payloadJson();
            hashes[i] = e.payloadHash();
        }
        Map<Row, Long> inserted = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            ArrayLiteral.bind(ps, 1, ids);
            ArrayLiteral.bind(ps, 2, streams);
            ArrayLiteral.bind(ps, 3, seqs);
            ArrayLiteral.bind(ps, 4, types);
            ArrayLiteral.bind(ps, 5, versions);
            ArrayLiteral.bind(ps, 6, writers);
            ArrayLiteral.bind(ps, 7, keys);
            ArrayLiteral.bind(ps, 8, occurred);
            ArrayLiteral.bind(ps, 9, topics);
            ArrayLiteral.bind(ps, 10, partitions);
            ArrayLiteral.bind(ps, 11, offsets);
            ps.setObject(12, jsonArray(payloads), Types.OTHER);
            ArrayLiteral.bind(ps, 13, hashes);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    inserted.put(new Row(rs.getObject(2, UUID.class), rs.getString(3), rs.getLong(4), rs.getString(5)),
                            rs.getLong(1));
                }
            }
        }
        List<Integer> notInserted = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Envelope env = events.get(i).envelope();
            // remove(): of several identical records in one batch only the first was inserted.
            Long position = inserted.remove(new Row(env.eventId(), env.streamId(), env.seq(), events.get(i).payloadHash()));
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

    /**
     * The payloads, each already JSON, as one JSON array: nothing to escape, where a text-array literal escaped every
     * quote of every ~1 KB payload in Java (the writing thread's busiest loop) and PostgreSQL then unescaped it and
     * parsed each element as jsonb again.
     */
    private static String jsonArray(Object[] json) {
        int length = 2;
        for (Object j : json) {
            length += ((String) j).length() + 1;
        }
        StringBuilder b = new StringBuilder(length).append('[');
        for (int i = 0; i < json.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append((String) json[i]);
        }
        return b.append(']').toString();
    }

    private void resolve(Connection c, List<NewEvent> events, List<Integer> indexes, List<Appended> out)
            throws SQLException {
        Object[] ids = new Object[indexes.size()], streams = new Object[indexes.size()], seqs = new Object[indexes.size()];
        for (int j = 0; j < indexes.size(); j++) {
            Envelope env = events.get(indexes.get(j)).envelope();
            ids[j] = env.eventId();
            streams[j] = env.streamId();
            seqs[j] = env.seq();
        }
        Map<UUID, Row> byId = new HashMap<>();
        Map<String, Row> bySeq = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT event_id, stream_id, seq, payload_hash FROM event_store
                WHERE event_id = ANY(?)
                   OR (stream_id, seq) IN (SELECT * FROM unnest(?::text[], ?::bigint[]))""")) {
            ArrayLiteral.bind(ps, 1, ids);
            ArrayLiteral.bind(ps, 2, streams);
            ArrayLiteral.bind(ps, 3, seqs);
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
                out.set(i, new Appended.Conflict("conflict: event_id " + env.eventId()
                        + " is already stored with other content"));
            } else if (taken != null) {
                out.set(i, new Appended.Conflict("conflict: " + env.streamId() + " seq " + env.seq()
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
                    boolean agentStream = StreamId.parse(stream).map(s -> s.kind().writtenByAgent()).orElse(false);
                    out.add(new StoredEvent(rs.getLong(1), new Envelope(
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
