package dev.podium.ingest.store;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.entity.CampaignSecretEntity;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The {@code campaign_secret} table: a campaign's secret environment values, AES-GCM under the master key with
 * {@code campaign/<id>/<name>} as associated data, so a ciphertext moved to another campaign or name does not open.
 * Values leave this class only to be sealed again for the agent a job is granted to.
 */
@ApplicationScoped
public class CampaignSecretStore {

    private final SecretCipher cipher;

    public CampaignSecretStore(IngestConfig config) {
        this.cipher = new SecretCipher(config.masterKey());
    }

    /** Stores the campaign's secrets in the caller's JTA transaction. */
    public void put(UUID campaignId, Map<String, String> secrets) {
        for (Map.Entry<String, String> s : secrets.entrySet()) {
            SecretCipher.Sealed sealed =
                    cipher.seal(aad(campaignId, s.getKey()), s.getValue().getBytes(StandardCharsets.UTF_8));
            CampaignSecretEntity row = new CampaignSecretEntity();
            row.campaignId = campaignId;
            row.name = s.getKey();
            row.ciphertext = sealed.ciphertext();
            row.nonce = sealed.nonce();
            row.persist();
        }
    }

    /**
     * The campaign's secrets in clear, empty when it has none; read on the ingest batch's connection, for a grant.
     *
     * @throws IllegalStateException when a value does not open under the master key (it was changed or moved)
     */
    public Map<String, String> open(Connection c, UUID campaignId) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT name, ciphertext, nonce FROM campaign_secret WHERE campaign_id = ?")) {
            ps.setObject(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    try {
                        out.put(
                                name,
                                new String(
                                        cipher.open(aad(campaignId, name), rs.getBytes(2), rs.getBytes(3)),
                                        StandardCharsets.UTF_8));
                    } catch (GeneralSecurityException e) {
                        throw new IllegalStateException("secret " + name + " of campaign " + campaignId
                                + " does not decrypt under the configured master key");
                    }
                }
            }
        }
        return out;
    }

    private static String aad(UUID campaignId, String name) {
        return "campaign/" + campaignId + "/" + name;
    }
}
