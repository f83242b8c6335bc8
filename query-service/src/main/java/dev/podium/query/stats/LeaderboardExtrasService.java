package dev.podium.query.stats;

import dev.podium.events.model.ComparisonKey;
import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.CellQueries;
import dev.podium.query.data.EnergyRow;
import dev.podium.query.data.HardwareUseRow;
import dev.podium.query.data.KeyRow;
import dev.podium.query.data.LeaderboardRow;
import dev.podium.query.data.Queries;
import dev.podium.query.view.Labels;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes a leaderboard's {@link LeaderboardExtras} for its selected key and metric from the cells ingest keeps for that
 * key (failing runs and scope, energy sums) and, for scaling, the rows of the same devices under the keys that differ in
 * accelerators only: a few indexed reads, whatever the number of runs.
 */
@ApplicationScoped
public class LeaderboardExtrasService {

    private static final String MEASURED = "measured";

    private final Queries queries;
    private final CellQueries cells;
    private final QueryConfig config;

    public LeaderboardExtrasService(Queries queries, CellQueries cells, QueryConfig config) {
        this.queries = queries;
        this.cells = cells;
        this.config = config;
    }

    /** A device's row from one source. */
    private record DeviceSource(String deviceId, String source) {}

    /** The row scaling is measured against, and its key's number of accelerators. */
    private record ScalingBase(LeaderboardRow row, int accelerators) {}

    /**
     * What the columns of one key's extras are computed from: the key's cells (failing runs, scope and energy by device)
     * and the scaling bases.
     */
    private record KeyCells(
            KeyRow key,
            String metric,
            boolean including,
            String rateOf,
            boolean lower,
            Integer total,
            Map<String, Integer> failing,
            Map<String, CellQueries.PowerCap> caps,
            Map<String, String> scopes,
            Map<String, EnergyRow> energy,
            List<HardwareUseRow> hardwareUse,
            Map<DeviceSource, ScalingBase> scalingBases,
            Margin margin) {

        LeaderboardExtras.Columns columns(LeaderboardRow e, DevicePrices prices) {
            Double price = prices.onDemand();
            boolean measured = MEASURED.equals(e.source());
            List<String> notes = new ArrayList<>();
            boolean perDevice = measured && "PER_ACCELERATOR".equals(scopes.get(e.deviceId()));
            Double perDollar = perDollar(e, perDevice, price, notes);
            EnergyRow power = measured ? energy.get(e.deviceId()) : null;
            Double joules = power == null ? null : power.joulesPerUnit(including);
            if (rateOf != null && joules == null) {
                notes.add(measured ? "no power samples recorded" : "published figure: no power samples");
            }
            ScalingBase b = scalingBases.get(new DeviceSource(e.deviceId(), e.source()));
            boolean scales = b != null
                    && total != null
                    && e.mean() != null
                    && b.row().mean() != null
                    && b.accelerators() < total;
            return new LeaderboardExtras.Columns(
                    e.deviceId(),
                    e.source(),
                    measured && including ? failing.getOrDefault(e.deviceId(), 0) : 0,
                    measured && including ? caps.get(e.deviceId()) : null,
                    perDollar,
                    price,
                    joules,
                    joules == null ? null : power.systemWatts(including),
                    scales ? scaling(e, b, perDevice) : null,
                    total,
                    scales ? b.accelerators() : null,
                    scales ? scalingVerdict(e, b, scaling(e, b, perDevice)) : null,
                    notes,
                    measured ? HistoryService.historyLink(key.keyId(), metric, e.deviceId()) : null,
                    measured ? HardwareUse.of(e.deviceId(), hardwareUse, including) : null,
                    joules == null ? null : UnitCosts.joules(power, including),
                    joules == null ? List.of() : prices.perMillion(power, including));
        }

        /** The row's units per dollar; null, with a note where no price is configured, when there is no rate. */
        private Double perDollar(LeaderboardRow e, boolean perDevice, Double price, List<String> notes) {
            int devices = total == null ? 1 : total;
            Double systemRate = e.mean() == null ? null : perDevice ? e.mean() * devices : e.mean();
            if (rateOf == null || systemRate == null) {
                return null;
            }
            if (price == null) {
                notes.add("no price per device-hour configured for " + e.deviceId());
                return null;
            }
            return Efficiency.perDollar(systemRate, price, devices);
        }

        /**
         * The efficiency's verdict against 1: its log has the spread of the two rows' log ratio (the accelerator counts
         * are constants), so only the centre moves.
         */
        private Equivalence scalingVerdict(LeaderboardRow e, ScalingBase b, Double efficiency) {
            if (efficiency == null || !(efficiency > 0)) {
                return null;
            }
            return RatioEstimator.difference(
                            LogSample.ofRow(e.mean(), e.runs(), e.ci95Low(), e.ci95High()),
                            LogSample.ofRow(
                                    b.row().mean(),
                                    b.row().runs(),
                                    b.row().ci95Low(),
                                    b.row().ci95High()),
                            false)
                    .map(w -> Equivalence.of(w.at(Math.log(efficiency)), margin))
                    .orElse(null);
        }

        private Double scaling(LeaderboardRow e, ScalingBase b, boolean perDevice) {
            int base = b.accelerators();
            double value = perDevice ? e.mean() * total : e.mean();
            double baseValue = perDevice ? b.row().mean() * base : b.row().mean();
            return Efficiency.scaling(value, total, baseValue, base, lower);
        }
    }

    /**
     * The extras of {@code rows}, one key's rows for a metric (with failing runs counted when {@code including}), with
     * their columns in the order of the rows; the unit and direction are the first row's, as the leaderboard's are.
     * {@code benchmarkKeys} are the key's benchmark's keys, among which the scaling bases are; scaling is judged at
     * {@code margin}.
     */
    public LeaderboardExtras of(
            KeyRow key,
            List<KeyRow> benchmarkKeys,
            String metric,
            boolean including,
            List<LeaderboardRow> rows,
            Margin margin) {
        if (metric == null) {
            return new LeaderboardExtras(including, 0, null, List.of());
        }
        String rateOf = Efficiency.rateOf(rows.isEmpty() ? null : rows.get(0).unit());
        boolean lower = !rows.isEmpty() && Labels.lowerIsBetter(rows.get(0).direction());
        Map<String, Integer> failing = new HashMap<>();
        Map<String, CellQueries.PowerCap> caps = new HashMap<>();
        Map<String, String> scopes = new HashMap<>();
        for (CellQueries.CellFacts f : cells.facts(List.of(key.keyId()), metric)) {
            failing.put(f.deviceId(), f.failingRuns());
            if (f.powerCap() != null) {
                caps.put(f.deviceId(), f.powerCap());
            }
            if (rateOf != null) {
                scopes.put(f.deviceId(), f.scope());
            }
        }
        int leftOut = including
                ? 0
                : failing.values().stream().mapToInt(Integer::intValue).sum();
        Integer total = integer(key.key().valueOf(ComparisonKey.TOTAL_ACCELERATORS));
        KeyCells keyCells = new KeyCells(
                key,
                metric,
                including,
                rateOf,
                lower,
                total,
                failing,
                caps,
                scopes,
                energy(key, metric, rateOf),
                rateOf == null ? List.of() : cells.hardwareUse(List.of(key.keyId()), metric),
                scalingBases(key, benchmarkKeys, metric, total),
                margin);
        List<LeaderboardExtras.Columns> columns = new ArrayList<>();
        for (LeaderboardRow e : rows) {
            columns.add(keyCells.columns(e, DevicePrices.of(config, e.deviceId())));
        }
        return new LeaderboardExtras(including, leftOut, rateOf, columns);
    }

    /** The key's energy cells by device, read only when the metric is a rate that energy and price apply to. */
    private Map<String, EnergyRow> energy(KeyRow key, String metric, String rateOf) {
        Map<String, EnergyRow> energy = new HashMap<>();
        if (rateOf != null) {
            cells.energy(List.of(key.keyId()), metric).forEach(e -> energy.put(e.deviceId(), e));
        }
        return energy;
    }

    /**
     * For each device and source, the row of the same device at the fewest accelerators under the keys that differ from
     * this one in total_accelerators only, with fewer of them: one read of those keys' rows.
     */
    private Map<DeviceSource, ScalingBase> scalingBases(
            KeyRow key, List<KeyRow> benchmarkKeys, String metric, Integer total) {
        if (total == null) {
            return Map.of();
        }
        String group =
                key.key().withoutDimension(ComparisonKey.TOTAL_ACCELERATORS).canonical();
        Map<String, Integer> sizes = new HashMap<>();
        for (KeyRow k : benchmarkKeys) {
            Integer n = integer(k.key().valueOf(ComparisonKey.TOTAL_ACCELERATORS));
            if (n != null
                    && n < total
                    && sizes.size() < 50
                    && k.key()
                            .withoutDimension(ComparisonKey.TOTAL_ACCELERATORS)
                            .canonical()
                            .equals(group)) {
                sizes.put(k.keyId(), n);
            }
        }
        if (sizes.isEmpty()) {
            return Map.of();
        }
        Map<DeviceSource, ScalingBase> out = new HashMap<>();
        for (LeaderboardRow r : queries.leaderboard(List.copyOf(sizes.keySet()), metric)) {
            ScalingBase candidate = new ScalingBase(r, sizes.get(r.keyId()));
            out.merge(
                    new DeviceSource(r.deviceId(), r.source()),
                    candidate,
                    (current, other) -> other.accelerators() < current.accelerators() ? other : current);
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
