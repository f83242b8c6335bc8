package dev.podium.ingest.consumer;

import dev.podium.events.TimeOrderedIds;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;

/**
 * Where each consumer of this process was about to read ({@code consumer_read_position}), saved before every poll that
 * could read from a new position. Kafka decompresses a record whole before any check can see it, so a record that is too
 * large for the heap ends the process ({@code -XX:+ExitOnOutOfMemoryError}) inside {@code poll}. A partition handed over
 * cleanly (revoked, or its consumer closed) is marked clean; one whose row is still unclean, under another owner, when a
 * consumer is assigned it was held by a process that died (or was fenced) reading it: the new owner reads it one record
 * at a time up to where that happened, and a record at which two processes died is set aside. The rows are written with
 * {@code synchronous_commit} off: they must survive this process, not the database.
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
     * Where a process died holding a partition: read one record at a time below {@code until}; {@code setAside} the
     * offset of the record to set aside, or null.
     */
    public record Suspect(long until, Long setAside) {}

    /**
     * Takes over the row of a partition just assigned; its suspect when another owner left it unclean (a death at an
     * exact row is counted), else null. A death in a poll of many records names the poll's first position: the record
     * is one of the next {@code maxPollRecords}, or of the batches polled before it and not committed, which the
     * consumer reads again from the committed offset.
     */
    public Suspect claim(String group, TopicPartition tp, int maxPollRecords) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("""
                        UPDATE consumer_read_position SET owner = ?,
                            deaths = CASE WHEN NOT exact THEN deaths WHEN death_offset = next_offset THEN deaths + 1
                                ELSE 1 END,
                            death_offset = CASE WHEN exact THEN next_offset ELSE death_offset END
                        WHERE group_id = ? AND topic = ? AND kafka_partition = ? AND NOT clean AND owner <> ?
                        RETURNING next_offset, exact, deaths""")) {
            ps.setObject(1, owner);
            ps.setString(2, group);
            ps.setString(3, tp.topic());
            ps.setInt(4, tp.partition());
            ps.setObject(5, owner);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long next = rs.getLong("next_offset");
                if (!rs.getBoolean("exact")) {
                    return new Suspect(next + maxPollRecords, null);
                }
                return new Suspect(next + 1, rs.getInt("deaths") >= DEATHS_BEFORE_SET_ASIDE ? next : null);
            }
        }
    }

    /**
     * Saves the positions a poll is about to read from; {@code exact} when the poll takes one record. The count of
     * deaths stays with the offset where they happened, whatever is saved after.
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
                    INSERT INTO consumer_read_position (group_id, topic, kafka_partition, next_offset, exact, clean, owner)
                    VALUES (?, ?, ?, ?, ?, false, ?)
                    ON CONFLICT (group_id, topic, kafka_partition) DO UPDATE SET next_offset = excluded.next_offset,
                        exact = excluded.exact, clean = false, owner = excluded.owner, saved_at = clock_timestamp()""")) {
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

    /** Partitions this process handed over cleanly: nothing died where it read them. */
    public void released(String group, Collection<TopicPartition> partitions) throws SQLException {
        if (partitions.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("""
                        UPDATE consumer_read_position SET clean = true
                        WHERE group_id = ? AND owner = ? AND (topic, kafka_partition) IN (
                            SELECT * FROM unnest(?::text[], ?::int[]))""")) {
            ps.setString(1, group);
            ps.setObject(2, owner);
            Array topics = c.createArrayOf(
                    "text", partitions.stream().map(TopicPartition::topic).toArray());
            Array numbers = c.createArrayOf(
                    "integer",
                    partitions.stream().map(TopicPartition::partition).toArray());
            ps.setArray(3, topics);
            ps.setArray(4, numbers);
            ps.executeUpdate();
        }
    }
}
