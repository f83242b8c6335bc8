package dev.podium.query.stats;

import dev.podium.events.model.StudentT;
import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * 95% confidence intervals for the ratio of two devices' metric from their per-repetition values.
 *
 * <p>Default: Welch's t interval on logs. With x = ln(values), y = ln(baseline values): d = mean(x) - mean(y),
 * se = sqrt(s_x²/n_x + s_y²/n_y), Welch–Satterthwaite df = se⁴ / ((s_x²/n_x)²/(n_x-1) + (s_y²/n_y)²/(n_y-1)), and the
 * interval is exp(d ± t(0.975, df)·se). It suits small n such as 3 (throughputs are positive and roughly log-normal; the
 * log makes the interval for a ratio symmetric) and needs n ≥ 2 on both sides.
 *
 * <p>When both sides have at least {@link #BOOTSTRAP_MIN_N} values the percentile bootstrap of the ratio of means
 * (B = {@link #BOOTSTRAP_RESAMPLES}, seeded from the data so a page shows the same interval each time) is used instead:
 * it assumes no distribution, and with that many values it is accurate. Comparison matrices use
 * {@link #estimateClosedForm} instead, for speed.
 *
 * <p>For lower-is-better metrics the ratio is baseline ÷ value, so above 1 always means better than the baseline.
 */
public final class RatioEstimator {

    public static final int BOOTSTRAP_MIN_N = 20;
    public static final int BOOTSTRAP_RESAMPLES = 4000;

    private RatioEstimator() {}

    /**
     * The interval for values against baseline values, or empty when either side has fewer than two positive, finite
     * values (a published figure, a single repetition).
     */
    public static Optional<RatioInterval> estimate(double[] values, double[] baseline, boolean lowerIsBetter) {
        return estimate(values, baseline, lowerIsBetter, true);
    }

    /**
     * Like {@link #estimate}, but the t interval on logs at every n: for pages that show a whole matrix of ratios. It is
     * closed-form (microseconds per cell, where the bootstrap takes about 0.7 ms, so 140 ms for a 200-cell comparison),
     * and from 20 values a side the central limit theorem makes it as accurate as the bootstrap (coverage tested at 30).
     */
    public static Optional<RatioInterval> estimateClosedForm(
            double[] values, double[] baseline, boolean lowerIsBetter) {
        return estimate(values, baseline, lowerIsBetter, false);
    }

    private static Optional<RatioInterval> estimate(
            double[] values, double[] baseline, boolean lowerIsBetter, boolean bootstrapWhenLarge) {
        double[] a = usable(values);
        double[] b = usable(baseline);
        if (a.length < 2 || b.length < 2) {
            return Optional.empty();
        }
        RatioInterval r = bootstrapWhenLarge && a.length >= BOOTSTRAP_MIN_N && b.length >= BOOTSTRAP_MIN_N
                ? bootstrap(a, b, BOOTSTRAP_RESAMPLES, seed(a, b))
                : welchLog(a, b);
        return Optional.of(lowerIsBetter ? invert(r) : r);
    }

    /**
     * {@link #estimateClosedForm} from the sides' {@link LogSample}s, which a page works out once per device and key
     * instead of once per cell and baseline.
     */
    public static Optional<RatioInterval> estimateClosedForm(
            LogSample values, LogSample baseline, boolean lowerIsBetter) {
        if (values.n() < 2 || baseline.n() < 2) {
            return Optional.empty();
        }
        RatioInterval r = welchLog(values, baseline);
        return Optional.of(lowerIsBetter ? invert(r) : r);
    }

    /** Welch's t interval on the log values, as described above; both arrays need two or more positive values. */
    public static RatioInterval welchLog(double[] values, double[] baseline) {
        return welchLog(LogSample.of(values), LogSample.of(baseline));
    }

    private static RatioInterval welchLog(LogSample x, LogSample y) {
        double vx = x.variance() / x.n();
        double vy = y.variance() / y.n();
        double d = x.mean() - y.mean();
        double se = Math.sqrt(vx + vy);
        if (se == 0) {
            double r = Math.exp(d);
            return new RatioInterval(r, r, r, RatioInterval.WELCH_LOG, x.n(), y.n(), (double) (x.n() + y.n() - 2));
        }
        double df = (vx + vy) * (vx + vy) / (vx * vx / (x.n() - 1) + vy * vy / (y.n() - 1));
        double t = StudentT.quantile975(df);
        return new RatioInterval(
                Math.exp(d), Math.exp(d - t * se), Math.exp(d + t * se), RatioInterval.WELCH_LOG, x.n(), y.n(), df);
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

    /** Percentile bootstrap of mean(values) / mean(baseline). */
    public static RatioInterval bootstrap(double[] values, double[] baseline, int resamples, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] ratios = new double[resamples];
        for (int i = 0; i < resamples; i++) {
            ratios[i] = resampledMean(values, random) / resampledMean(baseline, random);
        }
        Arrays.sort(ratios);
        double low = ratios[(int) Math.floor(0.025 * (resamples - 1))];
        double high = ratios[(int) Math.ceil(0.975 * (resamples - 1))];
        return new RatioInterval(
                mean(values) / mean(baseline),
                low,
                high,
                RatioInterval.BOOTSTRAP,
                values.length,
                baseline.length,
                null);
    }

    private static RatioInterval invert(RatioInterval r) {
        return new RatioInterval(1 / r.ratio(), 1 / r.high(), 1 / r.low(), r.method(), r.n(), r.baselineN(), r.df());
    }

    private static double resampledMean(double[] v, SplittableRandom random) {
        double sum = 0;
        for (int i = 0; i < v.length; i++) {
            sum += v[random.nextInt(v.length)];
        }
        return sum / v.length;
    }

    private static long seed(double[] a, double[] b) {
        return 31L * Arrays.hashCode(a) + Arrays.hashCode(b);
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
