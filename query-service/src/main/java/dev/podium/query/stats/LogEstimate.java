package dev.podium.query.stats;

/**
 * One side of a ratio on the log scale: the log of its value {@code mean}, the variance of one run's log value
 * {@code variance}, the runs {@code n} behind it, and the degrees of freedom {@code df} of its squared standard error
 * {@code variance / n}. A {@link LogSample} gives n - 1; an estimate combined from several measured points (a value
 * interpolated between two) gives its Welch–Satterthwaite df, which need not be a whole number.
 */
public record LogEstimate(double mean, double variance, int n, double df) {

    /** The squared standard error of {@code mean}. */
    public double squaredError() {
        return variance / n;
    }
}
