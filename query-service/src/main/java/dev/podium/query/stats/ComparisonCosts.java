package dev.podium.query.stats;

import dev.podium.events.model.ComparisonKey;
import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.CellQueries;
import dev.podium.query.data.EnergyRow;
import dev.podium.query.data.KeyRow;
import dev.podium.query.view.ComparisonView;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link CostCell}s for a comparison matrix, with the arithmetic of {@link Efficiency}: one read of the columns' cell facts
 * (scope) and one of their energy sums, whatever the number of cells and runs.
 */
@ApplicationScoped
public class ComparisonCosts {

    private final CellQueries cells;
    private final QueryConfig config;

    public ComparisonCosts(CellQueries cells, QueryConfig config) {
        this.cells = cells;
        this.config = config;
    }

    /** A device under one column's key. */
    private record Cell(String keyId, String deviceId) {}

    /** The cost cells of {@code view}, whose columns are the keys {@code columnKeys}. */
    public List<CostCell> of(ComparisonView view, List<KeyRow> columnKeys) {
        String metric = view.query().metric();
        if (view.columns().isEmpty() || metric == null || Efficiency.rateOf(view.unit()) == null) {
            return List.of();
        }
        List<String> keyIds =
                view.columns().stream().map(ComparisonView.Column::keyId).toList();
        boolean measured = view.rows().stream().anyMatch(r -> "measured".equals(r.source()));
        Map<Cell, EnergyRow> energy = new HashMap<>();
        if (measured) {
            cells.energy(keyIds, metric).forEach(e -> energy.put(new Cell(e.keyId(), e.deviceId()), e));
        }
        boolean scalingColumns =
                ComparisonKey.TOTAL_ACCELERATORS.equals(view.query().param());
        if (energy.isEmpty()
                && !scalingColumns
                && view.rows().stream()
                        .noneMatch(r -> config.prices().containsKey(r.deviceId())
                                || config.ownedPrices().containsKey(r.deviceId()))) {
            return List.of(); // no price, no power, no scaling: every cell would be empty
        }
        Map<String, Integer> accelerators = new HashMap<>();
        for (KeyRow k : columnKeys) {
            accelerators.put(k.keyId(), integer(k.key().valueOf(ComparisonKey.TOTAL_ACCELERATORS)));
        }
        Map<Cell, String> scopes = new HashMap<>();
        if (measured) {
            cells.facts(keyIds, metric).forEach(f -> scopes.put(new Cell(f.keyId(), f.deviceId()), f.scope()));
        }
        Facts facts = new Facts(energy, scopes, accelerators, scalingColumns);
        List<CostCell> out = new ArrayList<>();
        for (ComparisonView.Row row : view.rows()) {
            addRow(out, view, row, facts);
        }
        return out;
    }

    /** What the columns' cells cost beside their values: energy sums, scopes, accelerator counts, scaling or not. */
    private record Facts(
            Map<Cell, EnergyRow> energy,
            Map<Cell, String> scopes,
            Map<String, Integer> accelerators,
            boolean scalingColumns) {}

    /** Adds the row's non-empty cost cells; scaling is against the row's first cell with an accelerator count. */
    private void addRow(List<CostCell> out, ComparisonView view, ComparisonView.Row row, Facts facts) {
        boolean measuredRow = "measured".equals(row.source());
        Double baseValue = null;
        Integer base = null;
        for (ComparisonView.Cell cell : row.cells()) {
            if (cell.value() == null || cell.value() <= 0) {
                continue;
            }
            Cell at = new Cell(cell.keyId(), row.deviceId());
            Integer n = facts.accelerators().get(cell.keyId());
            int devices = n == null ? 1 : n;
            boolean perDevice =
                    measuredRow && "PER_ACCELERATOR".equals(facts.scopes().get(at));
            double system = perDevice ? cell.value() * devices : cell.value();
            DevicePrices prices = DevicePrices.of(config, row.deviceId());
            Double price = prices.onDemand();
            Double perDollar = price == null ? null : Efficiency.perDollar(system, price, devices);
            EnergyRow power = measuredRow ? facts.energy().get(at) : null;
            Double scaling = null;
            Integer scalingBase = null;
            if (facts.scalingColumns() && n != null) {
                if (baseValue == null) {
                    baseValue = system;
                    base = n;
                } else if (base < n) {
                    scaling = Efficiency.scaling(system, n, baseValue, base, view.lowerIsBetter());
                    scalingBase = base;
                }
            }
            CostCell c = new CostCell(
                    row.deviceId(),
                    row.source(),
                    cell.keyId(),
                    perDollar,
                    power == null ? null : power.joulesPerUnit(false),
                    power == null ? null : power.systemWatts(false),
                    scaling,
                    scalingBase,
                    power == null ? null : UnitCosts.joules(power, false),
                    power == null ? List.of() : prices.perMillion(power, false));
            if (!c.empty()) {
                out.add(c);
            }
        }
    }

    private static Integer integer(String s) {
        try {
            return s == null ? null : Integer.valueOf(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
