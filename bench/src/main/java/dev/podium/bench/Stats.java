package dev.podium.bench;

import dev.podium.events.model.StudentT;
import java.util.Arrays;
import java.util.List;

/** Percentiles and a mean with its 95% confidence interval (Student's t). */
public final class Stats {

    private Stats() {}

    /** The p-th percentile (0..100) by nearest rank; NaN for no values. */
    public static double percentile(double[] values, double p) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    /** Mean and the half width of its 95% confidence interval. */
    public record MeanCi(double mean, double halfWidth, int n) {
        public double low() {
            return mean - halfWidth;
        }

        public double high() {
            return mean + halfWidth;
        }
    }

    public static MeanCi meanCi(List<Double> values) {
        int n = values.size();
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        if (n < 2) {
            return new MeanCi(mean, Double.NaN, n);
        }
        double ss = 0;
        for (double v : values) {
            ss += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        return new MeanCi(mean, StudentT.quantile975(n - 1) * sd / Math.sqrt(n), n);
    }
}
