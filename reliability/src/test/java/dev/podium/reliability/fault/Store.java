package dev.podium.reliability.fault;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the database says: event_store and rejected_event rows, read with plain JDBC on a fresh connection each time. */
public final class Store {

    private final String url;

    public Store(String url) {
        this.url = url;
    }

    public long count(String sql, Object... params) {
        return ((Number) rows(sql, params).get(0).get(0)).longValue();
    }

    /** Rows the writer has in event_store. */
    public long stored(String writer) {
        return count("SELECT count(*) FROM event_store WHERE writer = ?", writer);
    }

    public Set<String> storedIds(String writer) {
        Set<String> ids = new HashSet<>();
        rows("SELECT event_id::text FROM event_store WHERE writer = ?", writer)
                .forEach(r -> ids.add((String) r.get(0)));
        return ids;
    }

    /** Rows beyond one per event id and one per stream position: what a double append would leave. */
    public long duplicated(String writer) {
        return count("""
                SELECT (count(*) - count(DISTINCT event_id)) + (count(*) - count(DISTINCT (stream_id, seq)))
                FROM event_store WHERE writer = ?""", writer);
    }

    /** Which of the given event ids are stored. */
    public Set<String> storedAmong(Set<String> ids) {
        Set<String> out = new HashSet<>();
        if (ids.isEmpty()) {
            return out;
        }
        rows("SELECT event_id::text FROM event_store WHERE event_id = ANY (?::uuid[])", (Object)
                        ids.toArray(String[]::new))
                .forEach(r -> out.add((String) r.get(0)));
        return out;
    }

    /** rejected_event rows of podium.events: "partition@offset" to reason, for rows of the given keys or at the offsets. */
    public Map<String, String> rejected(Set<String> keyIds, Set<String> offsets) {
        Map<String, String> out = new HashMap<>();
        for (List<Object> r : rows("""
                SELECT kafka_partition || '@' || kafka_offset, reason FROM rejected_event
                WHERE topic = 'podium.events' AND (key_id = ANY (?) OR kafka_partition || '@' || kafka_offset = ANY (?))""", keyIds.toArray(String[]::new), offsets.toArray(String[]::new))) {
            out.put((String) r.get(0), (String) r.get(1));
        }
        return out;
    }

    public List<List<Object>> rows(String sql, Object... params) {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                if (params[i] instanceof String[] array) {
                    ps.setArray(i + 1, c.createArrayOf("text", array));
                } else {
                    ps.setObject(i + 1, params[i]);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<List<Object>> out = new ArrayList<>();
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        row.add(rs.getObject(i));
                    }
                    out.add(row);
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }
}
