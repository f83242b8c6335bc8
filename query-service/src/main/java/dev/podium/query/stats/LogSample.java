package dev.podium.query.stats;

/**
 * What a Welch interval on logs needs of one side: how many usable (positive, finite) values it has, and the mean and
 * sample variance of their logarithms (NaN where there are too few values for them).
 */
public record LogSample(int n, double mean, double variance) {

    public static LogSample of(double[] values) {
        double[] x = RatioEstimator.logs(RatioEstimator.usable(values));
        return new LogSample(x.length, x.length == 0 ? Double.NaN : RatioEstimator.mean(x),
                x.length < 2 ? Double.NaN : RatioEstimator.variance(x));
    }
}
