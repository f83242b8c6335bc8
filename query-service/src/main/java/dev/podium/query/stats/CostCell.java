package dev.podium.query.stats;

/**
 * Cost, energy and scaling of one comparison cell (a device and source under one column's key): units per dollar at the
 * configured price, joules per unit from power samples (and the mean of the runs' average system power they come from),
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
        Integer scalingBase) {

    public boolean empty() {
        return perDollar == null && joulesPerUnit == null && scalingEfficiency == null;
    }
}
