package dev.podium.query.stats;

import java.util.List;

/**
 * Cost, energy and scaling of one comparison cell (a device and source under one column's key): units per dollar at the
 * configured price, joules per unit from power samples over the runs' measured windows (with its interval over the runs,
 * and the mean of the runs' window system power they come from), cost per million units under each priced basis,
 * and, when the columns vary {@code total_accelerators}, the scaling efficiency against the same device's first column.
 * Each null when it cannot be computed.
 */
public record CostCell(
        String deviceId,
        String source,
        String keyId,
        Double perDollar,
        Double joulesPerUnit,
        Double systemWatts,
        Double scalingEfficiency,
        Integer scalingBase,
        RunInterval joulesInterval,
        List<UnitCosts.Cost> costsPerMillion) {

    public boolean empty() {
        return perDollar == null && joulesPerUnit == null && scalingEfficiency == null;
    }
}
