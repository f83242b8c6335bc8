package dev.podium.query.stats;

import dev.podium.events.model.StudentT;
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

    /** This side as an estimate of its log mean, with n - 1 degrees of freedom. */
    public LogEstimate estimate() {
        return new LogEstimate(mean, variance, n, n - 1);
    }

    /**
     * From a leaderboard row (the mean of its runs' means, its 95% interval and its runs), where the runs' values are not
     * read: the log mean is log(mean) and the variance of the log values is runs·(se/mean)², se the interval's half-width
     * over t(0.975, runs - 1) (the delta method, close while the spread is a few percent of the mean). No values (n 0)
     * when the row has no interval or fewer than two runs.
     */
    public static LogSample ofRow(Double mean, int runs, Double ci95Low, Double ci95High) {
        if (mean == null || !(mean > 0) || runs < 2 || ci95Low == null || ci95High == null) {
            return new LogSample(0, Double.NaN, Double.NaN);
        }
        double relative = (ci95High - ci95Low) / 2 / StudentT.quantile975(runs - 1) / mean;
        return Double.isFinite(relative)
                ? new LogSample(runs, Math.log(mean), runs * relative * relative)
                : new LogSample(0, Double.NaN, Double.NaN);
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
