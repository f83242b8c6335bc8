package dev.podium.events.fleet;

import java.util.Arrays;
import java.util.Optional;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/**
 * A pool's distribution of one figure, summarised so that a few wild values cannot move it: the median and the median
 * absolute deviation (MAD). A value's modified z-score (Iglewicz and Hoaglin, 1993) is {@code 0.6745 (x - median) / MAD};
 * past {@value #THRESHOLD} in either direction the value is an outlier. When more than half the values are equal the
 * MAD is zero, and the score falls back to the mean absolute deviation, {@code (x - median) / (1.253314 MeanAD)}; when
 * every value is equal nothing is an outlier.
 */
public record RobustZ(int n, double median, double mad, double meanAbsoluteDeviation) {

    /** The cut-off Iglewicz and Hoaglin recommend. */
    public static final double THRESHOLD = 3.5;

    /** The fewest values a distribution needs before one of them can be told apart from the rest. */
    public static final int MIN_VALUES = 3;

    /** MAD times 1/0.6745 estimates the standard deviation of normal data. */
    static final double MAD_CONSISTENCY = 0.6745;

    /** MeanAD times 1.253314 (the square root of pi/2) estimates the standard deviation of normal data. */
    static final double MEAN_AD_CONSISTENCY = 1.253314;

    /** The distribution of the finite values given; empty when fewer than {@value #MIN_VALUES} are finite. */
    public static Optional<RobustZ> of(double[] values) {
        double[] finite = Arrays.stream(values).filter(Double::isFinite).toArray();
        if (finite.length < MIN_VALUES) {
            return Optional.empty();
        }
        double median = median(finite);
        double[] deviations =
                Arrays.stream(finite).map(v -> Math.abs(v - median)).toArray();
        double mad = median(deviations);
        double meanAd = Arrays.stream(deviations).average().orElse(0);
        return Optional.of(new RobustZ(finite.length, median, mad, meanAd));
    }

    /** The median: the middle value, or the mean of the middle two; NaN for no values. */
    public static double median(double[] values) {
        return new Median().evaluate(values);
    }

    /** The modified z-score of {@code x}: zero when every value of the distribution is equal. */
    public double z(double x) {
        if (mad > 0) {
            return MAD_CONSISTENCY * (x - median) / mad;
        }
        if (meanAbsoluteDeviation > 0) {
            return (x - median) / (MEAN_AD_CONSISTENCY * meanAbsoluteDeviation);
        }
        return 0;
    }

    /** Whether {@code x} lies outside the distribution: its score beyond {@value #THRESHOLD} either way. */
    public boolean flags(double x) {
        return Math.abs(z(x)) > THRESHOLD;
    }
}
