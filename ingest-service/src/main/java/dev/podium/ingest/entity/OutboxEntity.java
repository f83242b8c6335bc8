package dev.podium.ingest.entity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * {@code outbox}: a record the command side must get to Kafka, written in the transaction of the event it carries and
 * published by the relay in id order, at least once. {@code headers} is a JSON object of strings ({@code OutboxHeaders}).
 */
@Entity
@Table(name = "outbox")
public class OutboxEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "id")
    public Long id;

    @Column(name = "topic", nullable = false)
    public String topic;

    @Column(name = "record_key", nullable = false)
    public String recordKey;

    @Column(name = "value", nullable = false)
    public byte[] value;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "headers", nullable = false)
    public String headers;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "sent_at")
    public Instant sentAt;

    /** Up to {@code limit} unsent rows in id order, locked for this transaction. */
    public static List<OutboxEntity> lockUnsent(int limit) {
        return find("sentAt is null order by id")
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .range(0, limit - 1)
                .list();
    }
}
