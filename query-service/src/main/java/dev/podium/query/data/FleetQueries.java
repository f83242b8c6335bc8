package dev.podium.query.data;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.codec.EventCodec;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The fleet page's SQL: the command side's {@code campaign}, {@code job} and {@code job_grant} tables (V4), read only,
 * joined to {@code proj_run} for each run's status. Bounded, and on the indexes {@code campaign} (created_at is read
 * with a LIMIT over a small table), {@code job_campaign_idx}, {@code job_grant}'s primary key and {@code proj_run}'s;
 * and the fleet fitness rows ingest keeps (V125): flagged cells on their partial index, units by pool, each with a LIMIT;
 * and the adaptive campaigns' state and sides (V126), which the claim page reads too, on their primary keys.
 */
@ApplicationScoped
public class FleetQueries {

    private final Jdbc jdbc;
    private final ObjectMapper mapper = EventCodec.newMapper();

    public FleetQueries(DataSource dataSource) {
        this.jdbc = new Jdbc(dataSource);
    }

    /** The most recently created campaigns, newest first. */
    public List<CampaignRow> campaigns(int limit) {
        return jdbc.list(
                "SELECT c.campaign_id, c.name, c.pools, c.schedule, c.actor, c.created_at, c.last_issued_at, "
                        + "coalesce((SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(CASE WHEN jsonb_typeof(c.spec->'matrix') = 'object' "
                        + "THEN c.spec->'matrix' ELSE '{}'::jsonb END) k), '{}') AS matrix_keys, a.state AS adaptive_state "
                        + "FROM campaign c LEFT JOIN campaign_adaptive a ON a.campaign_id = c.campaign_id "
                        + "ORDER BY c.created_at DESC, c.campaign_id LIMIT ?",
                rs -> new CampaignRow(
                        rs.getObject("campaign_id", UUID.class),
                        rs.getString("name"),
                        strings(rs.getArray("pools")),
                        rs.getString("schedule"),
                        rs.getString("actor"),
                        Jdbc.instant(rs, "created_at"),
                        Jdbc.instant(rs, "last_issued_at"),
                        strings(rs.getArray("matrix_keys")),
                        AdaptiveState.of(rs.getString("adaptive_state"))),
                limit);
    }

    /** The sides of those of the given campaigns that are adaptive (V126), by campaign, then side. */
    public List<AdaptiveSideRow> adaptive(List<UUID> campaignIds, int limit) {
        return byIds(
                campaignIds,
                """
                SELECT a.campaign_id, a.state, a.target_half_width_pct, a.half_width_pct, a.jobs_requested, a.runs_counted,
                       a.max_runs, s.side, s.pool, s.parameters::text AS parameters, s.runs, s.jobs
                FROM campaign_adaptive a JOIN campaign_adaptive_side s ON s.campaign_id = a.campaign_id
                WHERE a.campaign_id = ANY(?::uuid[]) ORDER BY a.campaign_id, s.side LIMIT ?""",
                rs -> new AdaptiveSideRow(
                        rs.getObject("campaign_id", UUID.class),
                        new AdaptiveProgress(
                                AdaptiveState.of(rs.getString("state")),
                                rs.getDouble("target_half_width_pct"),
                                Jdbc.dbl(rs, "half_width_pct"),
                                rs.getInt("jobs_requested"),
                                rs.getInt("runs_counted"),
                                rs.getInt("max_runs")),
                        rs.getInt("side"),
                        rs.getString("pool"),
                        parameters(rs.getString("parameters")),
                        rs.getInt("runs"),
                        rs.getInt("jobs")),
                limit);
    }

    /** The jobs of the latest issue of each given campaign, each with the status of the run named by its current lease. */
    public List<JobRow> jobs(List<UUID> campaignIds, int limit) {
        return byIds(
                campaignIds,
                "SELECT j.job_id, j.campaign_id, j.issue, j.pool, j.state, j.lease_epoch, j.run_id, j.agent_id, "
                        + "j.lease_expires_at, (j.spec->'parameters')::text AS parameters, r.status AS run_status, r.started_at, "
                        + "r.finished_at, j.created_at, j.updated_at "
                        + "FROM job j LEFT JOIN proj_run r ON r.run_id = j.run_id WHERE j.campaign_id = ANY(?::uuid[]) "
                        + "AND j.issue = (SELECT max(l.issue) FROM job l WHERE l.campaign_id = j.campaign_id) "
                        + "ORDER BY j.campaign_id, j.pool, j.created_at, j.job_id LIMIT ?",
                this::job,
                limit);
    }

    /** Every grant of the given jobs, in epoch order, with what became of each granted run. */
    public List<JobAttemptRow> attempts(List<UUID> jobIds, int limit) {
        return byIds(
                jobIds,
                "SELECT g.job_id, g.lease_epoch, g.run_id, g.agent_id, g.granted_at, r.status AS run_status, r.started_at, "
                        + "r.finished_at FROM job_grant g LEFT JOIN proj_run r ON r.run_id = g.run_id WHERE g.job_id = ANY(?::uuid[]) "
                        + "ORDER BY g.job_id, g.lease_epoch LIMIT ?",
                rs -> new JobAttemptRow(
                        rs.getObject("job_id", UUID.class),
                        rs.getInt("lease_epoch"),
                        rs.getObject("run_id", UUID.class),
                        rs.getString("agent_id"),
                        Jdbc.instant(rs, "granted_at"),
                        rs.getString("run_status"),
                        Jdbc.instant(rs, "started_at"),
                        Jdbc.instant(rs, "finished_at")),
                limit);
    }

    /** The flagged cells, per pool the furthest from their median first. */
    public List<FleetCellRow> flagged(int limit) {
        return jdbc.list(
                "SELECT pool, key_id, metric, host_key, device, hostname, agent_id, unit, runs, sum_mean / runs AS mean, "
                        + "median, mad, mean_ad, group_n, z FROM proj_fleet_cell WHERE flagged "
                        + "ORDER BY pool, abs(z) DESC, key_id, metric, host_key, device LIMIT ?",
                FleetQueries::cell,
                limit);
    }

    /** Hosts and accelerators with runs on record, per pool, by host name. */
    public List<FleetUnitRow> units(int limit) {
        return jdbc.list(
                "SELECT pool, host_key, device, hostname, agent_id, device_id, driver, runtime, firmware, runs, succeeded, "
                        + "invalid, failed, cancelled FROM proj_fleet_unit "
                        + "ORDER BY pool, hostname, host_key, device LIMIT ?",
                rs -> new FleetUnitRow(
                        rs.getString("pool"),
                        rs.getString("host_key"),
                        rs.getString("device"),
                        rs.getString("hostname"),
                        rs.getString("agent_id"),
                        rs.getString("device_id"),
                        rs.getString("driver"),
                        rs.getString("runtime"),
                        rs.getString("firmware"),
                        rs.getLong("runs"),
                        rs.getLong("succeeded"),
                        rs.getLong("invalid"),
                        rs.getLong("failed"),
                        rs.getLong("cancelled")),
                limit);
    }

    private static FleetCellRow cell(ResultSet rs) throws SQLException {
        return new FleetCellRow(
                rs.getString("pool"),
                rs.getString("key_id"),
                rs.getString("metric"),
                rs.getString("host_key"),
                rs.getString("device"),
                rs.getString("hostname"),
                rs.getString("agent_id"),
                rs.getString("unit"),
                rs.getLong("runs"),
                rs.getDouble("mean"),
                (Double) rs.getObject("median"),
                (Double) rs.getObject("mad"),
                (Double) rs.getObject("mean_ad"),
                (Integer) rs.getObject("group_n"),
                (Double) rs.getObject("z"));
    }

    private JobRow job(ResultSet rs) throws SQLException {
        return new JobRow(
                rs.getObject("job_id", UUID.class),
                rs.getObject("campaign_id", UUID.class),
                rs.getInt("issue"),
                rs.getString("pool"),
                rs.getString("state"),
                rs.getInt("lease_epoch"),
                rs.getObject("run_id", UUID.class),
                rs.getString("agent_id"),
                Jdbc.instant(rs, "lease_expires_at"),
                parameters(rs.getString("parameters")),
                rs.getString("run_status"),
                Jdbc.instant(rs, "started_at"),
                Jdbc.instant(rs, "finished_at"),
                Jdbc.instant(rs, "created_at"),
                Jdbc.instant(rs, "updated_at"));
    }

    /** A job's parameters as text, in name order; a value that is not a scalar keeps its JSON text. */
    private Map<String, String> parameters(String json) {
        Map<String, String> out = new TreeMap<>();
        if (json == null) {
            return out;
        }
        try {
            JsonNode node = mapper.readTree(json);
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.put(
                        e.getKey(),
                        e.getValue().isValueNode()
                                ? e.getValue().asText()
                                : e.getValue().toString());
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a job's parameters are not JSON", e);
        }
        return out;
    }

    /** The rows a query of {@code ids} (its first parameter, as uuid[]) and a LIMIT finds; none for no ids. */
    private <T> List<T> byIds(List<UUID> ids, String sql, Jdbc.RowMapper<T> mapper, int limit) {
        return ids.isEmpty() ? List.of() : jdbc.list(sql, mapper, texts(ids), limit);
    }

    private static String[] texts(List<UUID> ids) {
        return ids.stream().map(UUID::toString).toArray(String[]::new);
    }

    private static List<String> strings(Array array) throws SQLException {
        if (array == null) {
            return List.of();
        }
        return new ArrayList<>(Arrays.asList((String[]) array.getArray()));
    }
}
