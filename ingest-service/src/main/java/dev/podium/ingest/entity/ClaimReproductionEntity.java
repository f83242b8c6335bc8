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

/** {@code claim_reproduction}: what a campaign made to measure a published claim compares, written with the campaign. */
@Entity
@Table(name = "claim_reproduction")
public class ClaimReproductionEntity extends PanacheEntityBase {

    @Id
    @Column(name = "campaign_id")
    public UUID campaignId;

    @Column(name = "source", nullable = false)
    public String source;

    @Column(name = "claim_id", nullable = false)
    public String claimId;

    @Column(name = "dimension", nullable = false)
    public String dimension;

    @Column(name = "parameter")
    public String parameter;

    @Column(name = "baseline_value")
    public String baselineValue;

    @Column(name = "compared_value")
    public String comparedValue;

    @Column(name = "baseline_label", nullable = false)
    public String baselineLabel;

    @Column(name = "compared_label", nullable = false)
    public String comparedLabel;

    @Column(name = "metric", nullable = false)
    public String metric;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "pools", nullable = false)
    public String[] pools;

    @Column(name = "actor", nullable = false)
    public String actor;

    /** The accelerators a run it was measured at; null: the claim's own number. */
    @Column(name = "devices")
    public Integer devices;

    /** The reproduction this one renews; null for a first one. */
    @Column(name = "rerun_of")
    public UUID rerunOf;

    @Column(name = "created_at", insertable = false, updatable = false)
    public Instant createdAt;
}
