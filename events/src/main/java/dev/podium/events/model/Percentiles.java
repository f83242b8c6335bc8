package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.util.List;

/**
 * The median, 90th and 99th percentiles of the per-request or per-step values behind a metric (all repetitions of the run
 * pooled), how many values there were, and each percentile's 95% interval from order statistics
 * ({@link OrderStatistics}; absent in events of agents that predate it). Interpolated linearly between the nearest
 * ranks, as numpy's default does, so a harness's own percentiles and these agree.
 */
public record Percentiles(
        @NonNegative int n,
        @NonNegative double p50,
        @NonNegative double p90,
        @NonNegative double p99,
        @Nullable PercentileBounds p50Bounds,
        @Nullable PercentileBounds p90Bounds,
        @Nullable PercentileBounds p99Bounds) {

    /** Percentiles without intervals, as agents that predate them sent. */
    public Percentiles(int n, double p50, double p90, double p99) {
        this(n, p50, p90, p99, null, null, null);
    }

    public static Percentiles of(List<Double> values) {
        if (values == null || values.isEmpty()) {
            throw new IllegalArgumentException("percentiles need at least one value");
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return new Percentiles(
                v.length,
                at(v, 50),
                at(v, 90),
                at(v, 99),
                OrderStatistics.bounds(v, 0.50),
                OrderStatistics.bounds(v, 0.90),
                OrderStatistics.bounds(v, 0.99));
    }

    /** The {@code p}th percentile of sorted values, linearly interpolated. */
    public static double at(double[] sorted, double p) {
        if (sorted.length == 0 || p < 0 || p > 100) {
            throw new IllegalArgumentException("a percentile between 0 and 100 of at least one value");
        }
        double rank = p / 100 * (sorted.length - 1);
        int lo = (int) Math.floor(rank);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
    }

    /** The {@code p}th percentile of values in any order. */
    public static double of(List<Double> values, double p) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return at(v, p);
    }
}
