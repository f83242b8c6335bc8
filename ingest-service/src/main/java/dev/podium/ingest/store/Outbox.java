package dev.podium.ingest.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.ingest.entity.OutboxEntity;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;

/**
 * {@code outbox}: records the command side must get to Kafka, written in the transaction of the events they carry and
 * published by the relay in id order, at least once. Admin commands and timers add them as entities; the ingest batch
 * adds the grants' on its own connection.
 */
@ApplicationScoped
public class Outbox {

    /** One record for Kafka; {@code headers} go on it as they are (UTF-8 values). */
    public record Record(String topic, String key, byte[] value, Map<String, String> headers) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Adds the record in the caller's JTA transaction. */
    public void add(Record r) {
        OutboxEntity row = new OutboxEntity();
        row.topic = r.topic();
        row.recordKey = r.key();
        row.value = r.value();
        row.headers = json(r.headers());
        row.persist();
    }

    /** Adds the record on the ingest batch's connection, in the batch's transaction. */
    public void add(Connection c, Record r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO outbox (topic, record_key, value, headers) VALUES (?, ?, ?, ?::jsonb)")) {
            ps.setString(1, r.topic());
            ps.setString(2, r.key());
            ps.setBytes(3, r.value());
            ps.setString(4, json(r.headers()));
            ps.executeUpdate();
        }
    }

    /** A stored row as the record it carries. */
    public static Record record(OutboxEntity row) {
        try {
            return new Record(
                    row.topic, row.recordKey, row.value, JSON.readValue(row.headers, new TypeReference<>() {}));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("outbox headers are a JSON object of strings", e);
        }
    }

    private static String json(Map<String, String> headers) {
        try {
            return JSON.writeValueAsString(headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("string headers always encode", e);
        }
    }
}
