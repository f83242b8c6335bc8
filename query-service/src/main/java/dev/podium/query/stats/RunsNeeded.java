package dev.podium.query.stats;

import dev.podium.events.model.StudentT;

/**
 * The runs per side that, at the variation observed, give 80% power to tell a difference of the margin apart
 * ({@code toTellApart}: the 95% interval excludes 1 when the true ratio is 1 + δ) and to show equivalence within it
 * ({@code toShowSame}: the 90% interval lies within ±log(1 + δ) when the true ratio is 1). With s² and s_b² each side's
 * variance of its log values and b the log bound, n = (s² + s_b²)·(t(1 - α/2) + t(power))² / b² and
 * n = (s² + s_b²)·(t(1 - α) + t(1 - (1 - power)/2))² / b² (Chow, Shao and Wang, Sample Size Calculations in Clinical
 * Research, 3.2): the smallest n that meets it, searched upward from the normal quantiles' answer. The t quantiles are
 * taken at n - 1 degrees of freedom, the fewest Welch's df can be with n runs a side: at 2n - 2, the most, the formula
 * promised 80% and a seeded simulation of Welch's test gave 77% at four runs a side. At most {@link #MOST}, which stands for "more than any
 * campaign runs".
 */
public record RunsNeeded(int toTellApart, int toShowSame) {

    public static final double POWER = 0.8;
    public static final int MOST = 10_000;
    private static final int LEAST = 2;

    /** The runs per side for a difference of logs {@code w}, at the bound {@code logBound} around the ratio tested. */
    public static RunsNeeded of(LogDifference w, double logBound) {
        double spread = w.variance() + w.baselineVariance();
        return new RunsNeeded(
                solve(spread, logBound, 0.975, POWER), solve(spread, logBound, 0.95, 1 - (1 - POWER) / 2));
    }

    /** The larger of the two: enough runs a side for either outcome. */
    public int most() {
        return Math.max(toTellApart, toShowSame);
    }

    private static int solve(double spread, double logBound, double p, double q) {
        if (!(spread > 0)) {
            return LEAST;
        }
        double quantiles =
                StudentT.quantile(p, Double.POSITIVE_INFINITY) + StudentT.quantile(q, Double.POSITIVE_INFINITY);
        // The normal quantiles give a lower bound; the t quantiles shrink as n grows, so the first n that meets its own
        // requirement is the answer.
        int n = (int) Math.max(LEAST, runs(spread, logBound, quantiles));
        while (n < MOST && runs(spread, logBound, StudentT.quantile(p, n - 1) + StudentT.quantile(q, n - 1)) > n) {
            n++;
        }
        return Math.min(n, MOST);
    }

    private static double runs(double spread, double logBound, double quantiles) {
        return Math.ceil(Math.min(MOST, spread * quantiles * quantiles / (logBound * logBound)));
    }
}
