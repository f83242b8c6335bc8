package dev.podium.ingest.budget;

import dev.podium.events.run.RunStarted;
import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.projection.CatalogNames;
import dev.podium.ingest.projection.CatalogNames.Entry;
import dev.podium.ingest.projection.CatalogNames.Kind;
import dev.podium.ingest.verify.Verdict;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Each agent's quota of new catalogue entries: a run that names a benchmark, comparison key or device id nobody named
 * before ({@code proj_catalog_origin}) adds it to the catalogue and counts against its agent, whether or not the run
 * completes; a run start that would take its agent past a quota is held.
 */
final class CatalogQuota {

    /** An agent's count of one kind of entry. */
    private record Use(String agentId, Kind kind) {}

    private final IngestConfig.Budget config;

    CatalogQuota(IngestConfig.Budget config) {
        this.config = config;
    }

    /** Holds, in batch order, each verified run start over its agent's quota; the streams of those held. */
    Set<String> hold(Connection c, Verdict[] verdicts) throws SQLException {
        Map<Integer, CatalogNames> starts = new HashMap<>();
        for (int i = 0; i < verdicts.length; i++) {
            if (verdicts[i] instanceof Verdict.Verified v && v.envelope().payload() instanceof RunStarted r) {
                starts.put(i, CatalogNames.of(r));
            }
        }
        Set<String> held = new LinkedHashSet<>();
        if (starts.isEmpty()) {
            return held;
        }
        Set<Entry> named = new HashSet<>(known(c, starts.values()));
        Map<Use, Integer> used = used(c, verdicts, starts.keySet());
        for (int i = 0; i < verdicts.length; i++) {
            CatalogNames names = starts.get(i);
            if (names == null) {
                continue;
            }
            Verdict.Verified v = (Verdict.Verified) verdicts[i];
            Map<Kind, Integer> adds = new EnumMap<>(Kind.class);
            names.entries().stream()
                    .filter(e -> !named.contains(e))
                    .forEach(e -> adds.merge(e.kind(), 1, Integer::sum));
            String over = overQuota(v.agentId(), adds, used);
            if (over != null) {
                verdicts[i] = Verdict.Refused.held(v, over);
                held.add(v.envelope().streamId());
            } else {
                adds.forEach((kind, n) -> used.merge(new Use(v.agentId(), kind), n, Integer::sum));
                named.addAll(names.entries());
            }
        }
        return held;
    }

    /** Why the new entries would take the agent past a quota, or null. */
    private String overQuota(String agentId, Map<Kind, Integer> adds, Map<Use, Integer> used) {
        for (Map.Entry<Kind, Integer> add : adds.entrySet()) {
            int after = used.getOrDefault(new Use(agentId, add.getKey()), 0) + add.getValue();
            int quota = quota(add.getKey());
            if (after > quota) {
                return "over quota: agent '" + agentId + "' would have named " + after + " new "
                        + add.getKey().column() + "s of " + quota + " allowed (podium.ingest.budget.agent-new-"
                        + add.getKey().column() + "s)";
            }
        }
        return null;
    }

    private int quota(Kind kind) {
        return switch (kind) {
            case BENCHMARK -> config.agentNewBenchmarks();
            case KEY -> config.agentNewKeys();
            case DEVICE -> config.agentNewDevices();
        };
    }

    /** Which of the entries the runs name are in the catalogue already. */
    private static Set<Entry> known(Connection c, Iterable<CatalogNames> runs) throws SQLException {
        Set<Entry> entries = new LinkedHashSet<>();
        runs.forEach(n -> entries.addAll(n.entries()));
        List<Entry> list = List.copyOf(entries);
        Set<Entry> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT o.kind, o.name FROM proj_catalog_origin o
                JOIN unnest(?::text[], ?::text[]) AS t(kind, name) ON o.kind = t.kind AND o.name = t.name""")) {
            ps.setArray(
                    1,
                    c.createArrayOf(
                            "text", list.stream().map(e -> e.kind().column()).toArray()));
            ps.setArray(
                    2, c.createArrayOf("text", list.stream().map(Entry::name).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Entry(kind(rs), rs.getString("name")));
                }
            }
        }
        return out;
    }

    /** The entries each agent of the run starts has added so far, per kind. */
    private static Map<Use, Integer> used(Connection c, Verdict[] verdicts, Set<Integer> starts) throws SQLException {
        Set<String> agents = new LinkedHashSet<>();
        starts.forEach(i -> agents.add(((Verdict.Verified) verdicts[i]).agentId()));
        Map<Use, Integer> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT agent_id, kind, count(*) AS entries FROM proj_catalog_origin
                WHERE agent_id = ANY(?::text[]) GROUP BY agent_id, kind""")) {
            ps.setArray(1, c.createArrayOf("text", agents.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(new Use(rs.getString("agent_id"), kind(rs)), rs.getInt("entries"));
                }
            }
        }
        return out;
    }

    private static Kind kind(ResultSet rs) throws SQLException {
        return Kind.valueOf(rs.getString("kind").toUpperCase(Locale.ROOT));
    }
}
