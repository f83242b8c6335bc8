package dev.podium.ingest.projection;

import java.math.BigDecimal;

/**
 * One row of {@code proj_energy_cell}: over the completed, not retracted runs of a (key, metric, device) cell that
 * recorded power, the sums of their joules per unit and of their system watts, for the counted (valid) runs and apart
 * for those that failed a validity check. Each value is added as the exact decimal of its shortest text, so the sums do
 * not depend on the order runs are read in: a rebuild gives the same rows.
 */
record EnergyCell(
        Touched.KeyMetricDevice cell,
        int runs,
        BigDecimal joulesSum,
        BigDecimal wattsSum,
        int failingRuns,
        BigDecimal failingJoulesSum,
        BigDecimal failingWattsSum) {

    private static final String PER_ACCELERATOR = "PER_ACCELERATOR";

    /** One run's result for the cell's metric and its average system power ({@code proj_run_power}). */
    record Run(double systemWatts, Double mean, String scope, Integer deviceCount, boolean valid) {

        /**
         * Joules per unit: average system watts ÷ the system's rate (the mean, times the run's accelerators when the
         * metric is per accelerator); null without power or a positive rate.
         */
        Double joulesPerUnit() {
            if (mean == null) {
                return null;
            }
            double rate = PER_ACCELERATOR.equals(scope) ? mean * (deviceCount == null ? 1 : deviceCount) : mean;
            return systemWatts > 0 && rate > 0 && Double.isFinite(rate) ? systemWatts / rate : null;
        }
    }

    static EnergyCell empty(Touched.KeyMetricDevice cell) {
        return new EnergyCell(cell, 0, BigDecimal.ZERO, BigDecimal.ZERO, 0, BigDecimal.ZERO, BigDecimal.ZERO);
    }

    /** This cell with {@code run} added; unchanged when the run gives no joules per unit. */
    EnergyCell plus(Run run) {
        Double joules = run.joulesPerUnit();
        if (joules == null) {
            return this;
        }
        BigDecimal j = exact(joules);
        BigDecimal w = exact(run.systemWatts());
        return run.valid()
                ? new EnergyCell(
                        cell,
                        runs + 1,
                        joulesSum.add(j),
                        wattsSum.add(w),
                        failingRuns,
                        failingJoulesSum,
                        failingWattsSum)
                : new EnergyCell(
                        cell,
                        runs,
                        joulesSum,
                        wattsSum,
                        failingRuns + 1,
                        failingJoulesSum.add(j),
                        failingWattsSum.add(w));
    }

    boolean isEmpty() {
        return runs == 0 && failingRuns == 0;
    }

    private static BigDecimal exact(double v) {
        return new BigDecimal(Double.toString(v));
    }
}
