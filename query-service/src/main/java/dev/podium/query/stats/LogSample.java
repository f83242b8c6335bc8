package dev.podium.query.stats;

import java.math.BigDecimal;

/**
 * What a Welch interval on logs needs of one side: how many usable (positive, finite) values it has, and the mean and
 * sample variance of their logarithms (NaN where there are too few values for them).
 */
public record LogSample(int n, double mean, double variance) {

    public static LogSample of(double[] values) {
        double[] x = RatioEstimator.logs(RatioEstimator.usable(values));
        return new LogSample(
                x.length,
                x.length == 0 ? Double.NaN : RatioEstimator.mean(x),
                x.length < 2 ? Double.NaN : RatioEstimator.variance(x));
    }

    /**
     * From the count, sum and sum of squares of the logarithms, as ingest keeps them (proj_comparison_cell): exact sums, so
     * the numerator of the variance {@code (n * squares - sum^2) / (n * (n - 1))} is exact and never negative, and no
     * cancellation reaches the doubles. The divisions are in doubles (a few units in the last place, far below what any
     * page or interval shows): exact decimal division and {@link BigDecimal#doubleValue}, which goes through a string in
     * JDK 17, cost about 6 µs a cell, a millisecond of a 200-cell comparison.
     */
    public static LogSample ofSums(int n, BigDecimal sum, BigDecimal squares) {
        if (n == 0) {
            return new LogSample(0, Double.NaN, Double.NaN);
        }
        BigDecimal count = BigDecimal.valueOf(n);
        double mean = toDouble(sum) / n;
        double variance = n < 2
                ? Double.NaN
                : toDouble(count.multiply(squares).subtract(sum.multiply(sum))) / ((double) n * (n - 1));
        return new LogSample(n, mean, variance);
    }

    /** The double nearest {@code x} within a unit or two in the last place, without a string. */
    static double toDouble(BigDecimal x) {
        int scale = x.scale();
        double unscaled = x.unscaledValue().doubleValue();
        if (scale == 0) {
            return unscaled;
        }
        if (Math.abs(scale) > 300 || Double.isInfinite(unscaled)) {
            return x.doubleValue();
        }
        return scale > 0 ? unscaled / Math.pow(10, scale) : unscaled * Math.pow(10, -scale);
    }
}
