package dev.podium.query.stats;

import java.math.BigDecimal;
import java.math.MathContext;

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
     * the variance {@code (n * squares - sum^2) / (n * (n - 1))} is exact before its one rounding and never negative.
     */
    public static LogSample ofSums(int n, BigDecimal sum, BigDecimal squares) {
        if (n == 0) {
            return new LogSample(0, Double.NaN, Double.NaN);
        }
        BigDecimal count = BigDecimal.valueOf(n);
        double mean = sum.divide(count, MathContext.DECIMAL128).doubleValue();
        double variance = n < 2
                ? Double.NaN
                : count.multiply(squares)
                        .subtract(sum.multiply(sum))
                        .divide(count.multiply(BigDecimal.valueOf(n - 1L)), MathContext.DECIMAL128)
                        .doubleValue();
        return new LogSample(n, mean, variance);
    }
}
