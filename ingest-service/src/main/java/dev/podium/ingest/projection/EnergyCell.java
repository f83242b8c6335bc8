package dev.podium.ingest.projection;

import java.math.BigDecimal;

/**
 * One row of {@code proj_energy_cell}: over the completed, not retracted runs of a (key, metric, device) cell that
 * recorded power in their measured window, the {@link Sums} of their joules per unit and device-seconds per unit, for the
 * counted (valid) runs and apart for those that failed a validity check. Each value is added as the exact decimal of its
 * shortest text (squares and products of those, exactly), so the sums do not depend on the order runs are read in: a
 * rebuild gives the same rows.
 */
record EnergyCell(Touched.KeyMetricDevice cell, Sums counted, Sums failing) {

    private static final String PER_ACCELERATOR = "PER_ACCELERATOR";

    /**
     * What a mean and a t interval of joules per unit (x), of device-seconds per unit (y) and of any price basis a·y + b·x
     * need: the count, the sums, the sums of squares and of the product; and the sum of window watts.
     */
    record Sums(
            int runs,
            BigDecimal joules,
            BigDecimal joulesSq,
            BigDecimal watts,
            BigDecimal deviceSeconds,
            BigDecimal deviceSecondsSq,
            BigDecimal joulesDeviceSeconds) {

        static final Sums EMPTY = new Sums(
                0,
                BigDecimal.ZERO,
                BigDecimal.ZERO,
                BigDecimal.ZERO,
                BigDecimal.ZERO,
                BigDecimal.ZERO,
                BigDecimal.ZERO);

        Sums plus(double joulesPerUnit, double windowWatts, double deviceSecondsPerUnit) {
            BigDecimal x = exact(joulesPerUnit);
            BigDecimal y = exact(deviceSecondsPerUnit);
            return new Sums(
                    runs + 1,
                    joules.add(x),
                    joulesSq.add(x.multiply(x)),
                    watts.add(exact(windowWatts)),
                    deviceSeconds.add(y),
                    deviceSecondsSq.add(y.multiply(y)),
                    joulesDeviceSeconds.add(x.multiply(y)));
        }
    }

    /**
     * One run's result for the cell's metric and its system power over the measured window ({@code proj_run_power}'s
     * window watts).
     */
    record Run(double windowWatts, Double mean, String scope, Integer deviceCount, boolean valid) {

        /** The system's rate: the mean, times the run's accelerators when the metric is per accelerator. */
        private double rate() {
            return PER_ACCELERATOR.equals(scope) ? mean * devices() : mean;
        }

        private int devices() {
            return deviceCount == null || deviceCount < 1 ? 1 : deviceCount;
        }

        private boolean counts() {
            return mean != null && windowWatts > 0 && rate() > 0 && Double.isFinite(rate());
        }

        /** Joules per unit: window watts ÷ the system's rate; null without power or a positive rate. */
        Double joulesPerUnit() {
            return counts() ? windowWatts / rate() : null;
        }

        /** Device-seconds per unit: the run's accelerators ÷ the system's rate, what a price per device-hour is paid for. */
        Double deviceSecondsPerUnit() {
            return counts() ? devices() / rate() : null;
        }
    }

    static EnergyCell empty(Touched.KeyMetricDevice cell) {
        return new EnergyCell(cell, Sums.EMPTY, Sums.EMPTY);
    }

    /** This cell with {@code run} added; unchanged when the run gives no joules per unit. */
    EnergyCell plus(Run run) {
        Double joules = run.joulesPerUnit();
        if (joules == null) {
            return this;
        }
        double seconds = run.deviceSecondsPerUnit();
        return run.valid()
                ? new EnergyCell(cell, counted.plus(joules, run.windowWatts(), seconds), failing)
                : new EnergyCell(cell, counted, failing.plus(joules, run.windowWatts(), seconds));
    }

    boolean isEmpty() {
        return counted.runs() == 0 && failing.runs() == 0;
    }

    private static BigDecimal exact(double v) {
        return new BigDecimal(Double.toString(v));
    }
}
