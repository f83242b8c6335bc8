package dev.podium.query.stats;

import dev.podium.query.data.CellQueries;

import dev.podium.events.model.ComparisonKey;
import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.Catalog;
import dev.podium.query.data.KeyRow;
import dev.podium.query.view.ComparisonView;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link CostCell}s for a comparison matrix, with the arithmetic of {@link Efficiency}: one read of the columns' counted
 * runs and one of their power samples, whatever the number of cells.
 */
@ApplicationScoped
public class ComparisonCosts {

    private final StatsCache stats;
    private final Catalog catalog;
    private final CellQueries cells;
    private final QueryConfig config;

    public ComparisonCosts(StatsCache stats, Catalog catalog, CellQueries cells, QueryConfig config) {
        this.stats = stats;
        this.catalog = catalog;
        this.cells = cells;
        this.config = config;
    }

    public List<CostCell> of(ComparisonView view) {
        String metric = view.query().metric();
        if (view.columns().isEmpty() || metric == null || Efficiency.rateOf(view.unit()) == null) {
            return List.of();
        }
        List<String> keyIds = view.columns().stream().map(ComparisonView.Column::keyId).toList();
        boolean measured = view.rows().stream().anyMatch(r -> "measured".equals(r.source()));
        // The runs themselves only for their power samples, and only under keys where some were recorded.
        List<String> withPower = measured ? keyIds.stream().filter(k -> stats.hasPower(view.query().benchmark(), k, metric)).toList() : List.of();
        boolean scalingColumns = ComparisonKey.TOTAL_ACCELERATORS.equals(view.query().param());
        if (withPower.isEmpty() && !scalingColumns && view.rows().stream().noneMatch(r -> config.prices().containsKey(r.deviceId()))) {
            return List.of(); // no price, no power, no scaling: every cell would be empty
        }
        Map<String, Integer> accelerators = new HashMap<>();
        for (KeyRow k : catalog.keys(view.query().benchmark())) {
            accelerators.put(k.keyId(), integer(k.key().valueOf(ComparisonKey.TOTAL_ACCELERATORS)));
        }
        Map<String, String> scopes = new HashMap<>();
        if (measured) {
            cells.facts(keyIds, metric).forEach(f -> scopes.put(f.deviceId() + "\n" + f.keyId(), f.scope()));
        }
        List<StatsQueries.RunValues> runs = withPower.isEmpty() ? List.of() : stats.runValues(withPower, metric, false);
        runs.forEach(r -> scopes.put(r.deviceId() + "\n" + r.keyId(), r.scope()));
        Map<String, Double> joules = Efficiency.meanJoules(runs, runs.isEmpty() ? Map.of() : stats.systemWatts(withPower, metric, false, 1000),
                r -> r.deviceId() + "\n" + r.keyId());
        List<CostCell> out = new ArrayList<>();
        for (ComparisonView.Row row : view.rows()) {
            Double baseValue = null;
            Integer base = null;
            for (ComparisonView.Cell cell : row.cells()) {
                if (cell.value() == null || cell.value() <= 0) {
                    continue;
                }
                Integer n = accelerators.get(cell.keyId());
                int devices = n == null ? 1 : n;
                boolean perDevice = "measured".equals(row.source()) && "PER_ACCELERATOR".equals(scopes.get(row.deviceId() + "\n" + cell.keyId()));
                double system = perDevice ? cell.value() * devices : cell.value();
                Double price = config.prices().get(row.deviceId());
                Double perDollar = price == null ? null : Efficiency.perDollar(system, price, devices);
                Double j = "measured".equals(row.source()) ? joules.get(row.deviceId() + "\n" + cell.keyId()) : null;
                Double scaling = null;
                Integer scalingBase = null;
                if (scalingColumns && n != null) {
                    if (baseValue == null) {
                        baseValue = system;
                        base = n;
                    } else if (base < n) {
                        scaling = Efficiency.scaling(system, n, baseValue, base, view.lowerIsBetter());
                        scalingBase = base;
                    }
                }
                CostCell c = new CostCell(row.deviceId(), row.source(), cell.keyId(), perDollar, j, scaling, scalingBase);
                if (!c.empty()) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    private static Integer integer(String s) {
        try {
            return s == null ? null : Integer.valueOf(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
