package dev.podium.query.reproduce;

import dev.podium.query.data.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The claim page's reads: the claim and its figures, its reproductions, and the measured rows their runs made (where
 * an adaptive reproduction stands is FleetQueries's, with the rest of the command side's campaign state).
 */
@ApplicationScoped
public class ReproductionQueries {

    /**
     * A reproduction as the command side recorded it (claim_reproduction); {@code devices}: the accelerators a run it was
     * measured at, null for the claim's own number.
     */
    record ReproductionRow(
            String campaignId,
            String dimension,
            String parameter,
            String baselineValue,
            String comparedValue,
            String baselineLabel,
            String comparedLabel,
            String metric,
            List<String> pools,
            Integer devices,
            Instant createdAt) {}

    /** A measured leaderboard row of one of a campaign's keys, with the pool whose job ran it. */
    record MeasuredRow(
            String pool,
            String keyId,
            String deviceId,
            String deviceLabel,
            String dimensionValue,
            int runs,
            Double mean,
            Double ci95Low,
            Double ci95High) {}

    /** A pool where a later run reported other software than the reproduction's (proj_reproduction_staleness). */
    record StaleRow(String pool, String component, String from, String to, Instant since) {}

    private final Jdbc jdbc;

    public ReproductionQueries(DataSource dataSource) {
        this.jdbc = new Jdbc(dataSource);
    }

    Optional<String> claimJson(String source, String claimId) {
        return jdbc.one(
                "SELECT claim::text FROM proj_published_claim WHERE source = ? AND claim_id = ?",
                rs -> rs.getString(1),
                source,
                claimId);
    }

    List<ReproductionRow> reproductions(String source, String claimId) {
        return jdbc.list(
                """
                SELECT campaign_id::text, dimension, parameter, baseline_value, compared_value, baseline_label,
                       compared_label, metric, pools, devices, created_at
                FROM claim_reproduction WHERE source = ? AND claim_id = ? ORDER BY created_at DESC LIMIT 20""",
                rs -> new ReproductionRow(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getString(7),
                        rs.getString(8),
                        List.of((String[]) rs.getArray(9).getArray()),
                        rs.getObject(10, Integer.class),
                        rs.getTimestamp(11).toInstant()),
                source,
                claimId);
    }

    /**
     * The leaderboard rows (measured, counted runs only) of the keys the campaign's completed runs were measured under,
     * for one metric; {@code dimension} names the key dimension whose value each row reports.
     */
    List<MeasuredRow> measured(String campaignId, String metric, String dimension) {
        return jdbc.list(
                """
                SELECT k.pool, lr.key_id, lr.device_id, coalesce(d.label, lr.device_id), ck.dimensions ->> ?, lr.runs,
                       lr.mean, lr.ci95_low, lr.ci95_high
                FROM (SELECT DISTINCT j.pool, r.key_id, r.device_id FROM job j JOIN proj_run r ON r.job_id = j.job_id
                      WHERE j.campaign_id = ?::uuid AND r.status = 'completed') k
                JOIN proj_leaderboard_row lr ON lr.key_id = k.key_id AND lr.device_id = k.device_id
                     AND lr.metric = ? AND lr.source = 'measured'
                JOIN proj_comparison_key ck ON ck.key_id = lr.key_id
                LEFT JOIN proj_device d ON d.device_id = lr.device_id
                ORDER BY k.pool, lr.device_id, 5 LIMIT 200""",
                rs -> new MeasuredRow(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getInt(6),
                        Jdbc.dbl(rs, "mean"),
                        Jdbc.dbl(rs, "ci95_low"),
                        Jdbc.dbl(rs, "ci95_high")),
                dimension == null ? "device" : dimension,
                campaignId,
                metric);
    }

    /** The pools of a reproduction where it went stale (at most one row per pool), by pool. */
    List<StaleRow> stale(String campaignId) {
        return jdbc.list(
                """
                SELECT pool, stale_component, stale_from, stale_to, stale_since FROM proj_reproduction_staleness
                WHERE campaign_id = ?::uuid AND stale_since IS NOT NULL ORDER BY pool LIMIT 20""",
                rs -> new StaleRow(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getTimestamp(5).toInstant()),
                campaignId);
    }
}
