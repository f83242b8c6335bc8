package dev.podium.ingest.projection;

import dev.podium.events.published.ClaimValue;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.PublishedClaimImported;
import dev.podium.ingest.store.Columns;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;

/** {@code proj_published_claim}: each imported figure or claim as stated; exact figures also feed leaderboards. */
@ApplicationScoped
public class PublishedClaimProjection implements Projection {

    /** A {@code proj_published_claim} row: the claim's figure ({@link Figure}) and the whole claim as JSON. */
    private record ClaimRow(
            String source,
            String claimId,
            boolean isRatio,
            String deviceId,
            String deviceLabel,
            Integer deviceCount,
            String benchmark,
            String keyId,
            String metric,
            String unit,
            String direction,
            String valueKind,
            Double value,
            Double low,
            Double high,
            String claim,
            long position) {

        static ClaimRow of(PublishedClaim claim, long position) {
            Figure f = Figure.of(claim.value());
            return new ClaimRow(
                    claim.source(),
                    claim.claimId(),
                    claim.isRatio(),
                    claim.deviceId(),
                    claim.deviceLabel(),
                    claim.deviceCount(),
                    claim.key() == null ? null : claim.key().benchmark(),
                    claim.key() == null ? null : claim.key().id(),
                    claim.metric(),
                    claim.unit(),
                    claim.direction().name(),
                    f.kind(),
                    f.value(),
                    f.low(),
                    f.high(),
                    Json.of(claim),
                    position);
        }
    }

    /** The columns a claim's value fills: {@code value_kind} and the figures of that kind. */
    private record Figure(String kind, Double value, Double low, Double high) {

        static Figure of(ClaimValue v) {
            if (v instanceof ClaimValue.Exact e) {
                return new Figure("value", e.value(), null, null);
            } else if (v instanceof ClaimValue.Range r) {
                return new Figure("range", null, r.low(), r.high());
            } else if (v instanceof ClaimValue.Bound b) {
                return new Figure("bound", b.value(), null, null);
            }
            return new Figure("n/a", null, null, null);
        }
    }

    private static final Columns<ClaimRow> CLAIM = Columns.of(ClaimRow.class);

    private static final String UPSERT = """
            INSERT INTO proj_published_claim (source, claim_id, is_ratio, device_id, device_label, device_count,
                                              benchmark, key_id, metric, unit, direction, value_kind, value, low, high,
                                              claim, position)
            SELECT source, claim_id, is_ratio, device_id, device_label, device_count, benchmark, key_id, metric, unit,
                   direction, value_kind, value, low, high, claim::jsonb, position
            FROM %s
            ON CONFLICT (source, claim_id) DO UPDATE SET is_ratio = excluded.is_ratio,
                device_id = excluded.device_id, device_label = excluded.device_label,
                device_count = excluded.device_count, benchmark = excluded.benchmark, key_id = excluded.key_id,
                metric = excluded.metric, unit = excluded.unit, direction = excluded.direction,
                value_kind = excluded.value_kind, value = excluded.value, low = excluded.low, high = excluded.high,
                claim = excluded.claim, position = excluded.position
            WHERE proj_published_claim.position < excluded.position""".formatted(CLAIM.unnest("x"));

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) throws SQLException {
        if (!(event.envelope().payload() instanceof PublishedClaimImported imported)) {
            return;
        }
        ClaimRow row = ClaimRow.of(imported.claim(), event.position());
        Rows.writeOne(c, CLAIM, UPSERT, row);
        touched.keyMetric(row.keyId(), row.metric());
    }
}
