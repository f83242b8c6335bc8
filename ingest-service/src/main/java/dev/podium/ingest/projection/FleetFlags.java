package dev.podium.ingest.projection;

import dev.podium.events.fleet.RobustZ;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Scores each cell of a group against its pool's distribution ({@link RobustZ}) and flags those beyond the threshold.
 * The distribution has one value per agent, the median of its cells, so an agent that names many hosts or devices is
 * still one voice among the pool's agents, and a liar's absurd values cannot move the median and MAD the honest are
 * judged by; each cell (a device, or a host) is then scored against it. Bounded: a group is read {@value #MAX_CELLS}
 * cells at most, by host key and device, the order its rows are locked in.
 */
final class FleetFlags {

    static final int MAX_CELLS = 1000;

    private record Scored(String hostKey, String device, String agentId, double mean) {}

    private FleetFlags() {}

    static void rescore(Connection c, Iterable<FleetDeltas.Group> groups) throws SQLException {
        for (FleetDeltas.Group g : groups) {
            List<Scored> cells = read(c, g);
            write(c, g, cells, RobustZ.of(distribution(cells)));
        }
    }

    private static List<Scored> read(Connection c, FleetDeltas.Group g) throws SQLException {
        List<Scored> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT host_key, device, agent_id, sum_mean / runs FROM proj_fleet_cell
                WHERE pool = ? AND key_id = ? AND metric = ? AND runs > 0
                ORDER BY host_key, device LIMIT ? FOR UPDATE""")) {
            ps.setString(1, g.pool());
            ps.setString(2, g.keyId());
            ps.setString(3, g.metric());
            ps.setInt(4, MAX_CELLS);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Scored(rs.getString(1), rs.getString(2), rs.getString(3), rs.getDouble(4)));
                }
            }
        }
        return out;
    }

    /** One value per agent: the median of its cells' means. */
    private static double[] distribution(List<Scored> cells) {
        Map<String, List<Double>> perAgent = new HashMap<>();
        cells.forEach(s -> perAgent.computeIfAbsent(String.valueOf(s.agentId()), a -> new ArrayList<>())
                .add(s.mean()));
        return perAgent.values().stream()
                .mapToDouble(means -> RobustZ.median(
                        means.stream().mapToDouble(Double::doubleValue).toArray()))
                .toArray();
    }

    private static void write(Connection c, FleetDeltas.Group g, List<Scored> cells, Optional<RobustZ> d)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE proj_fleet_cell SET median = ?, mad = ?, mean_ad = ?, group_n = ?, z = ?, flagged = ?
                WHERE pool = ? AND key_id = ? AND metric = ? AND host_key = ? AND device = ?""")) {
            for (Scored s : cells) {
                ps.setObject(1, d.map(RobustZ::median).orElse(null));
                ps.setObject(2, d.map(RobustZ::mad).orElse(null));
                ps.setObject(3, d.map(RobustZ::meanAbsoluteDeviation).orElse(null));
                ps.setObject(4, d.map(RobustZ::n).orElse(null));
                ps.setObject(5, d.map(x -> x.z(s.mean())).orElse(null));
                ps.setBoolean(6, d.map(x -> x.flags(s.mean())).orElse(false));
                ps.setString(7, g.pool());
                ps.setString(8, g.keyId());
                ps.setString(9, g.metric());
                ps.setString(10, s.hostKey());
                ps.setString(11, s.device());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
