package dev.podium.ingest.entity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.UUID;

/**
 * {@code job_grant}: the first claim of a job's epoch, decided by the primary key. Written only in the ingest batch's
 * transaction ({@code JobCommands}, JDBC, so that a lost race is an {@code ON CONFLICT DO NOTHING} and never aborts the
 * batch); mapped here so that Hibernate validates the table the batch writes.
 */
@Entity
@Table(name = "job_grant")
@IdClass(JobGrantEntity.Key.class)
public class JobGrantEntity extends PanacheEntityBase {

    /** The primary key: one grant per job and lease epoch. */
    public record Key(UUID jobId, int leaseEpoch) implements Serializable {}

    @Id
    @Column(name = "job_id")
    public UUID jobId;

    @Id
    @Column(name = "lease_epoch")
    public int leaseEpoch;

    @Column(name = "run_id", nullable = false, unique = true)
    public UUID runId;

    @Column(name = "agent_id", nullable = false)
    public String agentId;

    @Column(name = "granted_at", insertable = false, updatable = false)
    public Instant grantedAt;
}
