package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import java.util.Arrays;
import java.util.List;

/** Summary statistics of a metric's per-repetition values. {@code cv} is stdev / mean. */
public record Statistics(
        @NonNegative int n,
        @NonNegative double mean,
        @NonNegative double median,
        @NonNegative double stdev,
        @NonNegative double min,
        @NonNegative double max,
        double ci95Low,
        double ci95High,
        @NonNegative double cv) {

    /**
     * Statistics of per-repetition values: sample stdev (n - 1), a Student-t 95% interval for the mean, and cv = stdev /
     * mean. With one value the interval collapses to it and stdev is 0.
     */
    public static Statistics of(List<Double> values) {
        if (values == null || values.isEmpty()) {
            throw new IllegalArgumentException("statistics need at least one value");
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = v.length;
        double mean = Arrays.stream(v).sum() / n;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        double ss = 0;
        for (double x : v) {
            ss += (x - mean) * (x - mean);
        }
        double stdev = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
        double half = n > 1 ? StudentT.quantile975(n - 1) * stdev / Math.sqrt(n) : 0;
        double cv = mean == 0 ? 0 : stdev / Math.abs(mean);
        return new Statistics(n, mean, median, stdev, v[0], v[n - 1], mean - half, mean + half, cv);
    }
}
