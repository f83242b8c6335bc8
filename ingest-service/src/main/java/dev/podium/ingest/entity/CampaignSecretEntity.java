package dev.podium.ingest.entity;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.List;
import java.util.UUID;

/**
 * {@code campaign_secret}: one secret environment value of a campaign, sealed under the master key
 * ({@code CampaignSecretStore}). Written with its campaign; opened by the batch for a grant, on the batch's connection.
 */
@Entity
@Table(name = "campaign_secret")
@IdClass(CampaignSecretEntity.Key.class)
public class CampaignSecretEntity extends PanacheEntityBase {

    /** The primary key: a name within a campaign. */
    public record Key(UUID campaignId, String name) implements Serializable {}

    @Id
    @Column(name = "campaign_id")
    public UUID campaignId;

    @Id
    @Column(name = "name")
    public String name;

    @Column(name = "ciphertext", nullable = false)
    public byte[] ciphertext;

    @Column(name = "nonce", nullable = false)
    public byte[] nonce;

    /** The names of the campaign's secrets, in name order: what may be shown of them. */
    public static List<String> names(UUID campaignId) {
        return getEntityManager()
                .createQuery(
                        "select s.name from CampaignSecretEntity s where s.campaignId = :c order by s.name",
                        String.class)
                .setParameter("c", campaignId)
                .getResultList();
    }
}
