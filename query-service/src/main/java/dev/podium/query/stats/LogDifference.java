package dev.podium.query.stats;

/**
 * Welch's quantities for the log of a ratio: {@code d} = mean(log values) - mean(log baseline), its standard error
 * {@code se}, the Welch–Satterthwaite degrees of freedom {@code df}, and each side's variance of its log values and n,
 * from which the runs a verdict needs follow. What every interval, equivalence test and sample size in Podium starts from.
 */
public record LogDifference(
        double d, double se, double df, double variance, double baselineVariance, int n, int baselineN) {

    /** The difference of {@code x} against {@code y}; both need two or more values. */
    static LogDifference of(LogSample x, LogSample y) {
        return of(x.estimate(), y.estimate());
    }

    /**
     * The difference of estimate {@code x} against {@code y}, with the Welch–Satterthwaite df of their squared standard
     * errors; both need a positive df.
     */
    public static LogDifference of(LogEstimate x, LogEstimate y) {
        double vx = x.squaredError();
        double vy = y.squaredError();
        double se = Math.sqrt(vx + vy);
        double df = se == 0 ? x.df() + y.df() : (vx + vy) * (vx + vy) / (vx * vx / x.df() + vy * vy / y.df());
        return new LogDifference(x.mean() - y.mean(), se, df, x.variance(), y.variance(), x.n(), y.n());
    }

    /** The same spread around another difference: a ratio scaled by a known constant, such as accelerators. */
    LogDifference at(double newD) {
        return new LogDifference(newD, se, df, variance, baselineVariance, n, baselineN);
    }

    /** The baseline against the values: for lower-is-better metrics, so that above 1 always means better. */
    LogDifference inverted() {
        return new LogDifference(-d, se, df, variance, baselineVariance, n, baselineN);
    }
}
