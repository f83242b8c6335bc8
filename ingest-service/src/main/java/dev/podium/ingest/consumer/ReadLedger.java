package dev.podium.ingest.consumer;

import dev.podium.events.TimeOrderedIds;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;

/**
 * Where each consumer of this process was about to read ({@code consumer_read_position}), saved before every poll that
 * could read from a new position. Kafka decompresses a record whole before any check can see it, so a record that is too
 * large for the heap ends the process ({@code -XX:+ExitOnOutOfMemoryError}) inside {@code poll}; the rows it leaves
 * unclean tell the next process where to read one record at a time, and a record at which two processes died reading it
 * alone is set aside. The rows are written with {@code synchronous_commit} off: they must survive this process, not the
 * database.
 */
@ApplicationScoped
public class ReadLedger {

    /** Processes that died reading one record before it is set aside. */
    static final int DEATHS_BEFORE_SET_ASIDE = 2;

    private final AgroalDataSource dataSource;
    private final UUID owner = TimeOrderedIds.next();

    public ReadLedger(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * What a consumer starting after a process died reading must do: read one record at a time up to {@code carefulUntil}
     * (exclusive) of each partition, and set aside the record at {@code setAside}.
     */
    public record Recovery(Map<TopicPartition, Long> carefulUntil, Map<TopicPartition, Long> setAside) {

        public boolean careful() {
            return !carefulUntil.isEmpty();
        }
    }

    /**
     * Reads, and marks clean, the rows of {@code group} that a process left unclean; a death at an exact row is counted.
     * A death in a poll of many records names the poll's first position: the record is one of the next
     * {@code maxPollRecords}, or of the batches polled before it and not committed, which the consumer reads again.
     */
    public Recovery recover(String group, int maxPollRecords) throws SQLException {
        Map<TopicPartition, Long> carefulUntil = new HashMap<>();
        Map<TopicPartition, Long> setAside = new HashMap<>();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE consumer_read_position SET clean = true,
                        deaths = CASE WHEN exact THEN deaths + 1 ELSE deaths END
                    WHERE group_id = ? AND NOT clean
                    RETURNING topic, kafka_partition, next_offset, exact, deaths""")) {
                ps.setString(1, group);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        TopicPartition tp = new TopicPartition(rs.getString("topic"), rs.getInt("kafka_partition"));
                        long next = rs.getLong("next_offset");
                        if (!rs.getBoolean("exact")) {
                            carefulUntil.put(tp, next + maxPollRecords);
                        } else if (rs.getInt("deaths") >= DEATHS_BEFORE_SET_ASIDE) {
                            setAside.put(tp, next);
                            carefulUntil.put(tp, next + 1);
                        } else {
                            carefulUntil.put(tp, next + 1);
                        }
                    }
                }
            }
            c.commit();
        }
        return new Recovery(carefulUntil, setAside);
    }

    /**
     * Saves the positions a poll is about to read from; {@code exact} when the poll takes one record. A row saved again
     * at the same exact position keeps its count of deaths.
     */
    public void save(String group, Map<TopicPartition, Long> positions, boolean exact) throws SQLException {
        if (positions.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL synchronous_commit = off");
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO consumer_read_position AS p
                        (group_id, topic, kafka_partition, next_offset, exact, deaths, clean, owner)
                    VALUES (?, ?, ?, ?, ?, 0, false, ?)
                    ON CONFLICT (group_id, topic, kafka_partition) DO UPDATE SET next_offset = excluded.next_offset,
                        exact = excluded.exact, clean = false, owner = excluded.owner, saved_at = clock_timestamp(),
                        deaths = CASE WHEN p.exact AND excluded.exact AND p.next_offset = excluded.next_offset
                            THEN p.deaths ELSE 0 END""")) {
                for (Map.Entry<TopicPartition, Long> e : positions.entrySet()) {
                    ps.setString(1, group);
                    ps.setString(2, e.getKey().topic());
                    ps.setInt(3, e.getKey().partition());
                    ps.setLong(4, e.getValue());
                    ps.setBoolean(5, exact);
                    ps.setObject(6, owner);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
    }

    /** A consumer of this process closed: its rows are no longer where anything died. */
    public void closed(String group) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE consumer_read_position SET clean = true WHERE group_id = ? AND owner = ?")) {
            ps.setString(1, group);
            ps.setObject(2, owner);
            ps.executeUpdate();
        }
    }
}
