package dev.podium.ingest.projection;

import dev.podium.events.published.ClaimValue;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.PublishedClaimImported;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** {@code proj_published_claim}: each imported figure or claim as stated; exact figures also feed leaderboards. */
@ApplicationScoped
public class PublishedClaimProjection implements Projection {

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (!(event.envelope().payload() instanceof PublishedClaimImported imported)) {
            return;
        }
        PublishedClaim claim = imported.claim();
        String kind;
        Double value = null;
        Double low = null;
        Double high = null;
        if (claim.value() instanceof ClaimValue.Exact e) {
            kind = "value";
            value = e.value();
        } else if (claim.value() instanceof ClaimValue.Range r) {
            kind = "range";
            low = r.low();
            high = r.high();
        } else if (claim.value() instanceof ClaimValue.Bound b) {
            kind = "bound";
            value = b.value();
        } else {
            kind = "n/a";
        }
        String keyId = claim.key() == null ? null : claim.key().id();
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO proj_published_claim (source, claim_id, is_ratio, device_id, device_label, device_count,
                                                  benchmark, key_id, metric, unit, direction, value_kind, value, low, high,
                                                  claim, position)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)
                ON CONFLICT (source, claim_id) DO UPDATE SET is_ratio = excluded.is_ratio,
                    device_id = excluded.device_id, device_label = excluded.device_label,
                    device_count = excluded.device_count, benchmark = excluded.benchmark, key_id = excluded.key_id,
                    metric = excluded.metric, unit = excluded.unit, direction = excluded.direction,
                    value_kind = excluded.value_kind, value = excluded.value, low = excluded.low, high = excluded.high,
                    claim = excluded.claim, position = excluded.position
                WHERE proj_published_claim.position < excluded.position""")) {
            int i = 1;
            ps.setString(i++, claim.source());
            ps.setString(i++, claim.claimId());
            ps.setBoolean(i++, claim.isRatio());
            ps.setString(i++, claim.deviceId());
            ps.setString(i++, claim.deviceLabel());
            Sql.setInt(ps, i++, claim.deviceCount());
            ps.setString(i++, claim.key() == null ? null : claim.key().benchmark());
            ps.setString(i++, keyId);
            ps.setString(i++, claim.metric());
            ps.setString(i++, claim.unit());
            ps.setString(i++, claim.direction().name());
            ps.setString(i++, kind);
            Sql.setDouble(ps, i++, value);
            Sql.setDouble(ps, i++, low);
            Sql.setDouble(ps, i++, high);
            ps.setString(i++, Json.of(claim));
            ps.setLong(i, event.position());
            ps.executeUpdate();
        }
        touched.keyMetric(keyId, claim.metric());
    }
}
