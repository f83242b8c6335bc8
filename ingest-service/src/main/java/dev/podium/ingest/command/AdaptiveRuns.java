package dev.podium.ingest.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.TimeOrderedIds;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.Adaptive;
import dev.podium.events.model.AdaptiveStop;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.Metric;
import dev.podium.events.run.RunCompleted;
import dev.podium.ingest.store.Outbox;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Adaptive campaigns ({@link Adaptive}): when a job of one ends in the ingest batch, its run's mean of the campaign's
 * metric is added to its side's sums, and once none of the campaign's jobs is outstanding {@link AdaptiveStop} decides
 * whether to request one more job (through the outbox, as every JobRequested) or to stop, and why. In the batch's
 * transaction, the campaign's {@code campaign_adaptive} row locked (after the job rows, in campaign id order). Only
 * the run holding a job's lease ends it, once, so a lying agent's runs count at most once each and a campaign never
 * requests more than {@code max} jobs a side, whatever they report. An admin who cancels its last outstanding jobs
 * stops it ({@link #onCancelled}).
 */
@ApplicationScoped
public class AdaptiveRuns {

    private static final Logger LOG = Logger.getLogger(AdaptiveRuns.class);

    /** Writer of the jobs an adaptive campaign requests. */
    public static final String WRITER = "command:adaptive";

    /** A job of a campaign that ended; {@code completed} is null when its run failed or was cancelled. */
    public record Finished(UUID campaignId, String pool, String parameters, RunCompleted completed) {}

    private record State(Adaptive adaptive, String metric) {}

    private final CommandLog log;
    private final Outbox outbox;
    private final EventCodec codec = new EventCodec();

    public AdaptiveRuns(CommandLog log, Outbox outbox) {
        this.log = log;
        this.outbox = outbox;
    }

    /** Records an adaptive campaign just created with its two first jobs, each the first job of its side. */
    public void start(Connection c, UUID campaignId, Adaptive adaptive, String metric) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign_adaptive (campaign_id, metric, max_runs, target_half_width_pct, jobs_requested)
                VALUES (?, ?, ?, ?, 2)""")) {
            ps.setObject(1, campaignId);
            ps.setString(2, metric);
            ps.setInt(3, adaptive.max());
            ps.setDouble(4, adaptive.targetHalfWidthPct());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO campaign_adaptive_side (campaign_id, side, pool, parameters, jobs)
                SELECT campaign_id, row_number() OVER (ORDER BY job_id) - 1, pool, spec->'parameters', 1
                FROM job WHERE campaign_id = ?""")) {
            ps.setObject(1, campaignId);
            ps.executeUpdate();
        }
    }

    /** After the batch ended these jobs: counts their runs and decides for each adaptive campaign they belong to. */
    public void onFinished(Connection c, List<Finished> finished) throws SQLException {
        Map<UUID, List<Finished>> byCampaign = new TreeMap<>();
        for (Finished f : finished) {
            byCampaign.computeIfAbsent(f.campaignId(), id -> new ArrayList<>()).add(f);
        }
        for (Map.Entry<UUID, List<Finished>> e : byCampaign.entrySet()) {
            Optional<State> state = lockRunning(c, e.getKey());
            if (state.isEmpty()) {
                continue;
            }
            for (Finished f : e.getValue()) {
                count(c, f, state.get().metric());
            }
            if (!outstanding(c, e.getKey())) {
                decide(c, e.getKey(), state.get().adaptive());
            }
        }
    }

    /**
     * After an admin cancelled one of the campaign's jobs (same transaction, the job row locked first): once none is
     * outstanding the campaign stops, cancelled, and requests nothing more; no later run's end would decide for it.
     */
    public void onCancelled(Connection c, UUID campaignId) throws SQLException {
        if (lockRunning(c, campaignId).isEmpty() || outstanding(c, campaignId)) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE campaign_adaptive SET state = 'cancelled', updated_at = clock_timestamp()
                WHERE campaign_id = ?""")) {
            ps.setObject(1, campaignId);
            ps.executeUpdate();
        }
        LOG.infof("adaptive campaign %s stopped: its outstanding jobs were cancelled", campaignId);
    }

    private static Optional<State> lockRunning(Connection c, UUID campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT max_runs, target_half_width_pct, metric FROM campaign_adaptive
                WHERE campaign_id = ? AND state = 'running' FOR UPDATE""")) {
            ps.setObject(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                String metric = rs.getString(3);
                return Optional.of(new State(new Adaptive(rs.getInt(1), rs.getDouble(2), metric), metric));
            }
        }
    }

    /** Adds the run's mean to its side when it completed, passed its checks and reports the metric above zero. */
    private static void count(Connection c, Finished f, String metric) throws SQLException {
        OptionalDouble value = f.completed() == null ? OptionalDouble.empty() : value(f.completed(), metric);
        if (value.isEmpty()) {
            return;
        }
        double x = Math.log(value.getAsDouble());
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE campaign_adaptive_side SET runs = runs + 1, sum_log = sum_log + ?,
                    sum_log_squares = sum_log_squares + ?
                WHERE campaign_id = ? AND pool = ? AND parameters = ?::jsonb""")) {
            ps.setDouble(1, x);
            ps.setDouble(2, x * x);
            ps.setObject(3, f.campaignId());
            ps.setString(4, f.pool());
            ps.setString(5, f.parameters());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE campaign_adaptive SET runs_counted = runs_counted + 1 WHERE campaign_id = ?")) {
            ps.setObject(1, f.campaignId());
            ps.executeUpdate();
        }
    }

    /** The mean of the run's values of {@code metric}; empty for a run that failed a check or lacks the metric. */
    static OptionalDouble value(RunCompleted run, String metric) {
        if (run.validity().stream().anyMatch(v -> !v.passed())) {
            return OptionalDouble.empty();
        }
        return run.metrics().stream()
                .filter(m -> m.name().equals(metric) && m.values() != null)
                .map(Metric::values)
                .findFirst()
                .map(values -> values.stream().mapToDouble(Double::doubleValue).average())
                .filter(mean -> mean.isPresent() && Double.isFinite(mean.getAsDouble()) && mean.getAsDouble() > 0)
                .orElse(OptionalDouble.empty());
    }

    private static boolean outstanding(Connection c, UUID campaignId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT 1 FROM job WHERE campaign_id = ? AND state IN ('requested', 'assigned') LIMIT 1")) {
            ps.setObject(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private void decide(Connection c, UUID campaignId, Adaptive adaptive) throws SQLException {
        List<AdaptiveStop.Side> sides = sides(c, campaignId);
        AdaptiveStop.Decision decision = AdaptiveStop.decide(sides.get(0), sides.get(1), adaptive);
        if (decision instanceof AdaptiveStop.Decision.More more) {
            for (int side : more.sides()) {
                request(c, campaignId, side);
            }
            update(c, campaignId, "running", more.halfWidthPct(), more.sides().size());
        } else if (decision instanceof AdaptiveStop.Decision.Stop stop) {
            String state = stop.reason() == AdaptiveStop.Reason.TARGET_MET ? "target_met" : "budget_spent";
            update(c, campaignId, state, stop.halfWidthPct(), 0);
            LOG.infof(
                    "adaptive campaign %s stopped: %s",
                    campaignId, stop.reason().text());
        }
    }

    private static List<AdaptiveStop.Side> sides(Connection c, UUID campaignId) throws SQLException {
        List<AdaptiveStop.Side> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT runs, sum_log, sum_log_squares, jobs FROM campaign_adaptive_side
                WHERE campaign_id = ? ORDER BY side""")) {
            ps.setObject(1, campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new AdaptiveStop.Side(rs.getInt(1), rs.getDouble(2), rs.getDouble(3), rs.getInt(4)));
                }
            }
        }
        return out;
    }

    private static void update(Connection c, UUID campaignId, String state, Double halfWidthPct, int requested)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE campaign_adaptive SET state = ?, half_width_pct = ?, jobs_requested = jobs_requested + ?,
                    updated_at = clock_timestamp()
                WHERE campaign_id = ?""")) {
            ps.setString(1, state);
            ps.setObject(2, halfWidthPct);
            ps.setInt(3, requested);
            ps.setObject(4, campaignId);
            ps.executeUpdate();
        }
    }

    /** A new job for the side, a copy of its first job's spec, with its JobRequested appended and in the outbox. */
    private void request(Connection c, UUID campaignId, int side) throws SQLException {
        UUID jobId = TimeOrderedIds.next();
        String pool;
        String spec;
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO job (job_id, campaign_id, issue, pool, spec, state, lease_epoch, seq)
                SELECT ?, j.campaign_id, j.issue, j.pool, j.spec, 'requested', 1, 1
                FROM job j JOIN campaign_adaptive_side s
                    ON s.campaign_id = j.campaign_id AND s.pool = j.pool AND s.parameters = j.spec->'parameters'
                WHERE s.campaign_id = ? AND s.side = ?
                ORDER BY j.job_id LIMIT 1
                RETURNING pool, spec::text""")) {
            ps.setObject(1, jobId);
            ps.setObject(2, campaignId);
            ps.setInt(3, side);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                pool = rs.getString(1);
                spec = rs.getString(2);
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE campaign_adaptive_side SET jobs = jobs + 1 WHERE campaign_id = ? AND side = ?")) {
            ps.setObject(1, campaignId);
            ps.setInt(2, side);
            ps.executeUpdate();
        }
        Envelope requested = Envelope.of(
                TimeOrderedIds.next(),
                StreamId.job(jobId),
                1,
                null,
                Instant.now(),
                new JobRequested(jobId, campaignId, pool, jobSpec(spec)));
        for (Outbox.Record r : log.append(c, List.of(requested), WRITER, id -> 1)) {
            outbox.add(c, r);
        }
    }

    private JobSpec jobSpec(String json) {
        try {
            return codec.mapper().readValue(json, JobSpec.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored job spec always decodes", e);
        }
    }
}
