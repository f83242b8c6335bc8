package dev.podium.query.stats;

import dev.podium.query.data.CellQueries;

import dev.podium.events.model.ComparisonKey;
import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.Catalog;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.LeaderboardRow;
import dev.podium.query.view.Labels;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes a leaderboard's {@link LeaderboardExtras} for its selected key and metric. A row's columns depend on that row
 * alone, so the leaderboard computes them once for all the rows of a key and metric and picks those its filters keep.
 */
@ApplicationScoped
public class LeaderboardExtrasService {

    private final StatsCache stats;
    private final Catalog catalog;
    private final CellQueries cells;
    private final QueryConfig config;

    public LeaderboardExtrasService(StatsCache stats, Catalog catalog, CellQueries cells, QueryConfig config) {
        this.stats = stats;
        this.catalog = catalog;
        this.cells = cells;
        this.config = config;
    }

    /**
     * The extras of {@code rows}, one key's rows for a metric (with failing runs counted when {@code including}), with
     * their columns in the order of the rows; the unit and direction are the first row's, as the leaderboard's are.
     */
    public LeaderboardExtras of(KeyRow key, String metric, boolean including, List<LeaderboardRow> rows) {
        if (metric == null) {
            return new LeaderboardExtras(including, 0, null, List.of());
        }
        String rateOf = Efficiency.rateOf(rows.isEmpty() ? null : rows.get(0).unit());
        boolean lower = !rows.isEmpty() && Labels.lowerIsBetter(rows.get(0).direction());
        Map<String, Integer> failing = new HashMap<>();
        Map<String, String> scopes = new HashMap<>();
        for (CellQueries.CellFacts f : cells.facts(List.of(key.keyId()), metric)) {
            failing.put(f.deviceId(), f.failingRuns());
            if (rateOf != null) {
                scopes.put(f.deviceId(), f.scope());
            }
        }
        int leftOut = including ? 0 : failing.values().stream().mapToInt(Integer::intValue).sum();
        // The runs themselves only for their power samples, and only where some were recorded.
        List<StatsQueries.RunValues> runs = rateOf == null || !stats.hasPower(key.benchmark(), key.keyId(), metric) ? List.of()
                : stats.runValues(List.of(key.keyId()), metric, including);
        Map<String, Double> joules = runs.isEmpty() ? Map.of() : Efficiency.meanJoules(runs,
                stats.systemWatts(List.of(key.keyId()), metric, including, 500), StatsQueries.RunValues::deviceId);
        runs.forEach(r -> scopes.put(r.deviceId(), r.scope()));
        Integer total = integer(key.key().valueOf(ComparisonKey.TOTAL_ACCELERATORS));
        Map<String, LeaderboardRow> scalingBase = scalingBases(key, metric, total);

        List<LeaderboardExtras.Columns> columns = new ArrayList<>();
        for (LeaderboardRow e : rows) {
            List<String> notes = new ArrayList<>();
            boolean perDevice = "measured".equals(e.source()) && "PER_ACCELERATOR".equals(scopes.get(e.deviceId()));
            int devices = total == null ? 1 : total;
            Double systemRate = e.mean() == null ? null : perDevice ? e.mean() * devices : e.mean();
            Double price = config.prices().get(e.deviceId());
            Double perDollar = null;
            if (rateOf != null && systemRate != null) {
                if (price == null) {
                    notes.add("no price per device-hour configured for " + e.deviceId());
                } else {
                    perDollar = Efficiency.perDollar(systemRate, price, devices);
                }
            }
            Double energy = "measured".equals(e.source()) ? joules.get(e.deviceId()) : null;
            if (rateOf != null && energy == null) {
                notes.add("measured".equals(e.source()) ? "no power samples recorded" : "published figure: no power samples");
            }
            Double scaling = null;
            Integer base = null;
            LeaderboardRow b = scalingBase.get(e.deviceId() + "\n" + e.source());
            if (b != null && total != null && e.mean() != null && b.mean() != null) {
                base = integer(catalogKey(key.benchmark(), b.keyId()).valueOf(ComparisonKey.TOTAL_ACCELERATORS));
                if (base != null && base < total) {
                    double value = perDevice ? e.mean() * total : e.mean();
                    double baseValue = perDevice ? b.mean() * base : b.mean();
                    scaling = Efficiency.scaling(value, total, baseValue, base, lower);
                } else {
                    base = null;
                }
            }
            columns.add(new LeaderboardExtras.Columns(e.deviceId(), e.source(), "measured".equals(e.source()) && including
                    ? failing.getOrDefault(e.deviceId(), 0) : 0, perDollar, price, energy, scaling, total, base, notes,
                    "measured".equals(e.source()) ? HistoryService.historyLink(key.keyId(), metric, e.deviceId()) : null));
        }
        return new LeaderboardExtras(including, leftOut, rateOf, columns);
    }

    /**
     * For each device and source, the row of the same device at the fewest accelerators under the keys that differ from
     * this one in total_accelerators only.
     */
    private Map<String, LeaderboardRow> scalingBases(KeyRow key, String metric, Integer total) {
        if (total == null) {
            return Map.of();
        }
        List<KeyRow> siblings = catalog.cached("scaling siblings\n" + key.benchmark() + "\n" + key.keyId(), () -> {
            String group = key.key().withoutDimension(ComparisonKey.TOTAL_ACCELERATORS).canonical();
            return catalog.keys(key.benchmark()).stream()
                    .filter(k -> !k.keyId().equals(key.keyId()))
                    .filter(k -> k.key().withoutDimension(ComparisonKey.TOTAL_ACCELERATORS).canonical().equals(group))
                    .filter(k -> {
                        Integer n = integer(k.key().valueOf(ComparisonKey.TOTAL_ACCELERATORS));
                        return n != null && n < total;
                    }).limit(50).toList();
        });
        if (siblings.isEmpty()) {
            return Map.of();
        }
        Map<String, Integer> sizes = new HashMap<>();
        siblings.forEach(k -> sizes.put(k.keyId(), integer(k.key().valueOf(ComparisonKey.TOTAL_ACCELERATORS))));
        Map<String, LeaderboardRow> out = new HashMap<>();
        Map<String, List<LeaderboardRow>> byKey = catalog.leaderboardByKey(key.benchmark(), metric);
        for (LeaderboardRow r : siblings.stream().flatMap(k -> byKey.getOrDefault(k.keyId(), List.of()).stream()).toList()) {
            String id = r.deviceId() + "\n" + r.source();
            LeaderboardRow current = out.get(id);
            if (current == null || sizes.get(r.keyId()) < sizes.get(current.keyId())) {
                out.put(id, r);
            }
        }
        return out;
    }

    private ComparisonKey catalogKey(String benchmark, String keyId) {
        return catalog.keys(benchmark).stream().filter(k -> k.keyId().equals(keyId)).findFirst().map(KeyRow::key).orElseThrow();
    }

    private static Integer integer(String s) {
        try {
            return s == null ? null : Integer.valueOf(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
