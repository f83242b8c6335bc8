package dev.podium.ingest.entity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * {@code job}: one job's state and the lock that orders writes to its stream ({@code seq} is the last seq written on
 * {@code job/<id>}). Admin commands and the timers change it here; the batch grants and ends jobs on its own connection
 * ({@code JobCommands}).
 */
@Entity
@Table(name = "job")
public class JobEntity extends PanacheEntityBase {

    public static final String REQUESTED = "requested";
    public static final String ASSIGNED = "assigned";
    public static final String CANCELLED = "cancelled";

    /** PostgreSQL's "skip locked" for a pessimistic lock (jakarta.persistence.lock.timeout). */
    private static final int SKIP_LOCKED = -2;

    @Id
    @Column(name = "job_id")
    public UUID jobId;

    @Column(name = "campaign_id")
    public UUID campaignId;

    @Column(name = "issue", nullable = false)
    public int issue;

    @Column(name = "pool", nullable = false)
    public String pool;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "spec", nullable = false)
    public String spec;

    @Column(name = "state", nullable = false)
    public String state;

    @Column(name = "lease_epoch", nullable = false)
    public int leaseEpoch;

    @Column(name = "run_id")
    public UUID runId;

    @Column(name = "agent_id")
    public String agentId;

    @Column(name = "lease_expires_at")
    public Instant leaseExpiresAt;

    /** The latest a heartbeat can renew the lease to; set at the grant from the spec's timeout. */
    @Column(name = "lease_deadline")
    public Instant leaseDeadline;

    @Column(name = "seq", nullable = false)
    public long seq;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    public static Optional<JobEntity> lock(UUID jobId) {
        return findByIdOptional(jobId, LockModeType.PESSIMISTIC_WRITE);
    }

    /** Up to {@code limit} assigned jobs whose lease has passed, soonest expired first, locked; others' are skipped. */
    public static List<JobEntity> lockExpired(int limit) {
        return find("state = ?1 and leaseExpiresAt < current_timestamp order by leaseExpiresAt", ASSIGNED)
                .withLock(LockModeType.PESSIMISTIC_WRITE)
                .withHint("jakarta.persistence.lock.timeout", SKIP_LOCKED)
                .range(0, limit - 1)
                .list();
    }

    /** The campaign's jobs in the order its page lists them. */
    public static List<JobEntity> ofCampaign(UUID campaignId) {
        return list("campaignId = ?1 order by issue, createdAt, pool, jobId", campaignId);
    }

    /** The next issue number of the campaign's jobs (1 for a campaign with none). */
    public static int nextIssue(UUID campaignId) {
        Integer max = getEntityManager()
                .createQuery("select max(j.issue) from JobEntity j where j.campaignId = :c", Integer.class)
                .setParameter("c", campaignId)
                .getSingleResult();
        return max == null ? 1 : max + 1;
    }
}
