package dev.podium.ingest.projection;

import dev.podium.events.agent.AgentRegistered;
import dev.podium.ingest.store.StoredEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Fleet fitness ({@code proj_fleet_run}, {@code proj_fleet_unit}, {@code proj_fleet_cell}): per pool and unit (a host,
 * and its accelerator's identity when a run used one), runs by outcome and the versions of its latest run; per
 * comparison key and metric, each unit's mean of its counted runs and where it lies in its pool's distribution
 * ({@link FleetFlags}). An aggregate over proj_run and proj_result, recomputed for the runs a batch touched: each run's
 * earlier contribution is taken back and its current one added, so a batch costs what its runs bring, and the groups
 * they changed are scored again.
 */
@ApplicationScoped
public class FleetProjection implements Projection {

    /** The tables, derived from proj_run, proj_result, proj_agent and proj_run_throttle_head. */
    static final List<String> TABLES = List.of("proj_fleet_cell", "proj_fleet_unit", "proj_fleet_run");

    private static final int REBUILD_CHUNK = 1000;

    /** The agents a batch registered: a unit's pool is its agent's, which a registration may change. */
    private static final class Registered {
        final Set<String> agents = new TreeSet<>();
    }

    @Override
    public void apply(StoredEvent event, Connection c, Touched touched) {
        if (event.envelope().payload() instanceof AgentRegistered r) {
            touched.state(Registered.class, Registered::new).agents.add(r.agentId());
        }
    }

    void recompute(Connection c, Touched touched) throws SQLException {
        Set<String> registered = touched.state(Registered.class, Registered::new).agents;
        Set<UUID> runs = new TreeSet<>(touched.runs());
        if (!registered.isEmpty()) {
            runs.addAll(movedPool(c, registered));
            registered.clear();
        }
        if (!runs.isEmpty()) {
            refresh(c, List.copyOf(runs));
        }
    }

    /**
     * The runs of these agents that count in another pool than their agent's now (a run can start before its agent's
     * registration is applied, or the agent moved): only those are refreshed, so a registration that changes nothing
     * costs an indexed look-up.
     */
    private static List<UUID> movedPool(Connection c, Set<String> agents) throws SQLException {
        List<UUID> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT r.run_id FROM proj_run r
                JOIN proj_fleet_run f ON f.run_id = r.run_id
                LEFT JOIN proj_agent a ON a.agent_id = r.agent_id
                WHERE r.agent_id = ANY(?) AND f.pool <> coalesce(a.pool, '')""")) {
            ps.setArray(1, c.createArrayOf("text", agents.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getObject(1, UUID.class));
                }
            }
        }
        return out;
    }

    /** Every run, in chunks, into tables a rebuild has just emptied. */
    void recomputeAll(Connection c) throws SQLException {
        UUID after = null;
        while (true) {
            List<UUID> chunk = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT run_id FROM proj_run WHERE ?::uuid IS NULL OR run_id > ? ORDER BY run_id LIMIT "
                            + REBUILD_CHUNK)) {
                ps.setObject(1, after);
                ps.setObject(2, after);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        chunk.add(rs.getObject(1, UUID.class));
                    }
                }
            }
            if (chunk.isEmpty()) {
                return;
            }
            refresh(c, chunk);
            after = chunk.get(chunk.size() - 1);
        }
    }

    private static void refresh(Connection c, List<UUID> runs) throws SQLException {
        Map<UUID, FleetRun> before = FleetRuns.stored(c, runs);
        Map<UUID, FleetRun.About> about = new HashMap<>();
        Map<UUID, FleetRun> now = FleetRuns.current(c, runs, about);
        FleetDeltas deltas = new FleetDeltas();
        List<FleetRun> changed = new ArrayList<>();
        List<UUID> gone = new ArrayList<>();
        for (UUID run : runs) {
            FleetRun was = before.get(run);
            FleetRun is = now.get(run);
            if (is != null) {
                deltas.describe(is, about.get(run));
            }
            if (Objects.equals(was, is)) {
                continue;
            }
            if (was != null) {
                deltas.add(was, -1);
            }
            if (is != null) {
                deltas.add(is, 1);
                changed.add(is);
            } else {
                gone.add(run);
            }
        }
        deltas.write(c);
        FleetRuns.store(c, changed, gone);
        FleetFlags.rescore(c, deltas.groups());
    }
}
