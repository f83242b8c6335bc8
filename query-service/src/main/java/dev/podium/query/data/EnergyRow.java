package dev.podium.query.data;

import java.math.BigDecimal;

/**
 * One row of proj_energy_cell: over a device's completed, not retracted runs under a key that recorded power, the sums of
 * their joules per unit and of their average system watts, for the counted runs and, apart, those that failed a check.
 */
public record EnergyRow(
        String keyId,
        String deviceId,
        int runs,
        BigDecimal joulesSum,
        BigDecimal wattsSum,
        int failingRuns,
        BigDecimal failingJoulesSum,
        BigDecimal failingWattsSum) {

    /** The mean joules per unit over the counted runs (and those that failed a check, when {@code includingFailing}). */
    public Double joulesPerUnit(boolean includingFailing) {
        return mean(joulesSum, failingJoulesSum, includingFailing);
    }

    /** The mean of the runs' average system power, in watts, over the same runs. */
    public Double systemWatts(boolean includingFailing) {
        return mean(wattsSum, failingWattsSum, includingFailing);
    }

    private Double mean(BigDecimal counted, BigDecimal failing, boolean includingFailing) {
        int n = runs + (includingFailing ? failingRuns : 0);
        return n == 0 ? null : (includingFailing ? counted.add(failing) : counted).doubleValue() / n;
    }
}
