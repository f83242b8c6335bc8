package dev.podium.ingest.entity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** {@code campaign}: what an admin asked to run, as submitted ({@code spec} is the JobSpec's snake_case JSON). */
@Entity
@Table(name = "campaign")
public class CampaignEntity extends PanacheEntityBase {

    @Id
    @Column(name = "campaign_id")
    public UUID campaignId;

    @Column(name = "name", nullable = false)
    public String name;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "spec", nullable = false)
    public String spec;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "pools", nullable = false)
    public String[] pools;

    @Column(name = "schedule")
    public String schedule;

    @Column(name = "period_seconds")
    public Long periodSeconds;

    @Column(name = "last_issued_at", nullable = false)
    public Instant lastIssuedAt;

    @Column(name = "actor", nullable = false)
    public String actor;

    @Column(name = "exclude_flagged", nullable = false)
    public boolean excludeFlagged;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;

    public List<String> poolList() {
        return List.of(pools);
    }

    /**
     * The scheduled campaigns whose period has passed since they were last issued, oldest first, locked; one another
     * schedule check holds is skipped. Native because the due test adds a column's seconds to a timestamp.
     */
    @SuppressWarnings("unchecked")
    public static List<CampaignEntity> lockDue() {
        return getEntityManager().createNativeQuery("""
                        SELECT * FROM campaign WHERE period_seconds IS NOT NULL
                          AND last_issued_at + make_interval(secs => period_seconds) <= clock_timestamp()
                        ORDER BY last_issued_at FOR UPDATE SKIP LOCKED""", CampaignEntity.class).getResultList();
    }
}
