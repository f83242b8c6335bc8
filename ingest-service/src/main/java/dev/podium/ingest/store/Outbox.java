package dev.podium.ingest.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code outbox}: records the command side must get to Kafka, written in the transaction of the events they carry and
 * published by the relay in id order, at least once.
 */
@ApplicationScoped
public class Outbox {

    /** One unsent row; {@code headers} go on the record as they are (UTF-8 values). */
    public record Row(long id, String topic, String key, byte[] value, Map<String, String> headers) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    public void add(Connection c, String topic, String key, byte[] value, Map<String, String> headers)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO outbox (topic, record_key, value, headers) VALUES (?, ?, ?, ?::jsonb)")) {
            ps.setString(1, topic);
            ps.setString(2, key);
            ps.setBytes(3, value);
            ps.setString(4, JSON.writeValueAsString(headers));
            ps.executeUpdate();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("string headers always encode", e);
        }
    }

    /** Up to {@code limit} unsent rows in id order, locked for this transaction. */
    public List<Row> lockUnsent(Connection c, int limit) throws SQLException {
        List<Row> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT id, topic, record_key, value, headers::text FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT ?
                FOR UPDATE""")) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Row(
                            rs.getLong(1), rs.getString(2), rs.getString(3), rs.getBytes(4), headers(rs.getString(5))));
                }
            }
        }
        return out;
    }

    private static Map<String, String> headers(String json) {
        try {
            return JSON.readValue(json, new TypeReference<Map<String, String>>() {});
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("outbox headers are a JSON object of strings", e);
        }
    }

    public void markSent(Connection c, List<Row> rows) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE outbox SET sent_at = clock_timestamp() WHERE id = ANY(?)")) {
            ps.setArray(1, c.createArrayOf("bigint", rows.stream().map(Row::id).toArray()));
            ps.executeUpdate();
        }
    }
}
