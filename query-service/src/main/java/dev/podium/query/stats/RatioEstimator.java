package dev.podium.query.stats;

import dev.podium.events.model.StudentT;
import java.util.Arrays;
import java.util.Optional;

/**
 * 95% confidence intervals for the ratio of two devices' metric from their per-repetition values.
 *
 * <p>Default: Welch's t interval on logs. With x = ln(values), y = ln(baseline values): d = mean(x) - mean(y),
 * se = sqrt(s_x²/n_x + s_y²/n_y), Welch–Satterthwaite df = se⁴ / ((s_x²/n_x)²/(n_x-1) + (s_y²/n_y)²/(n_y-1)), and the
 * interval is exp(d ± t(0.975, df)·se). It suits small n such as 3 (throughputs are positive and roughly log-normal; the
 * log makes the interval for a ratio symmetric) and needs n ≥ 2 on both sides.
 *
 * <p>Every page uses it, the history's versions as much as the comparison's matrix: it is closed-form (microseconds
 * per interval, where a percentile bootstrap of 4,000 resamples cost about 0.7 ms at 40 values a side and grew with
 * them), and from 20 values a side the central limit theorem makes it as accurate as the bootstrap (coverage tested at
 * 30).
 *
 * <p>For lower-is-better metrics the ratio is baseline ÷ value, so above 1 always means better than the baseline.
 */
public final class RatioEstimator {

    private RatioEstimator() {}

    /**
     * The interval for values against baseline values, or empty when either side has fewer than two positive, finite
     * values (a published figure, a single repetition).
     */
    public static Optional<RatioInterval> estimateClosedForm(
            double[] values, double[] baseline, boolean lowerIsBetter) {
        return estimateClosedForm(LogSample.of(values), LogSample.of(baseline), lowerIsBetter);
    }

    /**
     * {@link #estimateClosedForm} from the sides' {@link LogSample}s, which a page works out once per device and key
     * instead of once per cell and baseline.
     */
    public static Optional<RatioInterval> estimateClosedForm(
            LogSample values, LogSample baseline, boolean lowerIsBetter) {
        return difference(values, baseline, lowerIsBetter).map(RatioEstimator::interval);
    }

    /** Welch's t interval on the log values, as described above; both arrays need two or more positive values. */
    public static RatioInterval welchLog(double[] values, double[] baseline) {
        return welchLog(LogSample.of(values), LogSample.of(baseline));
    }

    private static RatioInterval welchLog(LogSample x, LogSample y) {
        return interval(LogDifference.of(x, y));
    }

    /** The 95% interval exp(d ± t(0.975, df)·se) of a difference of logs. */
    public static RatioInterval interval(LogDifference w) {
        double t = w.se() == 0 ? 0 : StudentT.quantile975(w.df());
        return new RatioInterval(
                Math.exp(w.d()),
                Math.exp(w.d() - t * w.se()),
                Math.exp(w.d() + t * w.se()),
                RatioInterval.WELCH_LOG,
                w.n(),
                w.baselineN(),
                w.df());
    }

    /**
     * The better-oriented difference of logs of values against baseline values, or empty when either side has fewer than
     * two values.
     */
    public static Optional<LogDifference> difference(LogSample values, LogSample baseline, boolean lowerIsBetter) {
        if (values.n() < 2 || baseline.n() < 2) {
            return Optional.empty();
        }
        return Optional.of(difference(values.estimate(), baseline.estimate(), lowerIsBetter));
    }

    /** The better-oriented difference of logs of estimate {@code values} against {@code baseline}. */
    public static LogDifference difference(LogEstimate values, LogEstimate baseline, boolean lowerIsBetter) {
        LogDifference w = LogDifference.of(values, baseline);
        return lowerIsBetter ? w.inverted() : w;
    }

    /**
     * Whether an interval holds numbers a page can show: values that are finite but far apart (1e-300 against 1e150) give
     * a ratio, or bounds, beyond what a double holds, infinite or zero.
     */
    public static boolean computable(RatioInterval r) {
        return positiveFinite(r.ratio()) && positiveFinite(r.low()) && positiveFinite(r.high());
    }

    private static boolean positiveFinite(double x) {
        return Double.isFinite(x) && x > 0;
    }

    static double[] usable(double[] v) {
        return v == null
                ? new double[0]
                : Arrays.stream(v).filter(x -> Double.isFinite(x) && x > 0).toArray();
    }

    static double[] logs(double[] v) {
        return Arrays.stream(v).map(Math::log).toArray();
    }

    static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    static double variance(double[] v) {
        double m = mean(v);
        double ss = 0;
        for (double x : v) {
            ss += (x - m) * (x - m);
        }
        return ss / (v.length - 1);
    }
}
