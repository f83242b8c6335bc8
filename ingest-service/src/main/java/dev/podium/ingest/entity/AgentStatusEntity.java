package dev.podium.ingest.entity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * {@code agent_status}: an agent's last heartbeat. Written only by the heartbeat consumer, in its batch's transaction
 * on its own connection together with the leases the heartbeats renew (JDBC); mapped here so that Hibernate validates
 * the table.
 */
@Entity
@Table(name = "agent_status")
public class AgentStatusEntity extends PanacheEntityBase {

    @Id
    @Column(name = "agent_id")
    public String agentId;

    @Column(name = "boot_id")
    public UUID bootId;

    @Column(name = "pool")
    public String pool;

    @Column(name = "state")
    public String state;

    @Column(name = "current_job_id")
    public UUID currentJobId;

    @Column(name = "current_run_id")
    public UUID currentRunId;

    @Column(name = "lease_epoch")
    public Integer leaseEpoch;

    @Column(name = "device_id")
    public String deviceId;

    @Column(name = "hostname")
    public String hostname;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "sensors")
    public String sensors;

    @Column(name = "last_heartbeat_at", nullable = false)
    public Instant lastHeartbeatAt;

    @Column(name = "heartbeat_seq")
    public Long heartbeatSeq;

    @Column(name = "heartbeat_sent_at")
    public Instant heartbeatSentAt;
}
