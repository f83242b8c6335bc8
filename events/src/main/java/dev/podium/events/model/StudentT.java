package dev.podium.events.model;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The 0.975 quantile of Student's t distribution, the one every 95% interval in Podium uses (agents' statistics,
 * leaderboard rows, comparison ratios), exact for any degrees of freedom, whole or not (Welch's df rarely is whole); and
 * the upper quantiles an equivalence test and its sample size need (0.95, 0.9, 0.8), by the same steps.
 */
public final class StudentT {

    /** Absolute accuracy of the inverse CDF: the quantiles are of order 2, so about 1e-13 relative. */
    private static final double ACCURACY = 1e-13;
    /**
     * From this many degrees of freedom on, four terms of the Cornish-Fisher expansion leave an error of order 1e-15,
     * while commons-math3's incomplete beta function loses digits as df grows (1.4e-7 at 1e9).
     */
    private static final double EXPANSION_FROM = 1000;

    private static final int MAX_STEPS = 20;
    private static final double STEP_TOLERANCE = 1e-13;

    // No random generator anywhere here: the distributions are only evaluated, and commons-math3 would seed one each.
    private static final double NORMAL_975 =
            new NormalDistribution(null, 0, 1, ACCURACY).inverseCumulativeProbability(0.975);

    /**
     * The quantiles of whole df below {@link #EXPANSION_FROM}, by the same steps: a leaderboard row's interval has n - 1
     * of them, and each page has dozens of rows.
     */
    private static final double[] WHOLE = wholeQuantiles();

    private StudentT() {}

    private static double[] wholeQuantiles() {
        double[] quantiles = new double[(int) EXPANSION_FROM];
        for (int df = 1; df < quantiles.length; df++) {
            quantiles[df] = computed(df);
        }
        return quantiles;
    }

    /** The 0.975 quantile for {@code df} degrees of freedom (df of at least 1; infinite gives the normal quantile). */
    public static double quantile975(double df) {
        if (!(df >= 1)) {
            throw new IllegalArgumentException("degrees of freedom must be 1 or more, not " + df);
        }
        if (df < EXPANSION_FROM && df == Math.rint(df)) {
            return WHOLE[(int) df];
        }
        return computed(df);
    }

    private static double computed(double df) {
        return quantile(0.975, NORMAL_975, df);
    }

    /**
     * The {@code p} quantile for {@code df} degrees of freedom, for an upper probability 0.5 &lt; p &lt; 1 (df of at least
     * 1; infinite gives the normal quantile).
     */
    public static double quantile(double p, double df) {
        if (!(p > 0.5 && p < 1)) {
            throw new IllegalArgumentException("the probability must lie between 0.5 and 1, not " + p);
        }
        if (!(df >= 1)) {
            throw new IllegalArgumentException("degrees of freedom must be 1 or more, not " + df);
        }
        if (p == 0.975) {
            return quantile975(df);
        }
        return quantile(p, new NormalDistribution(null, 0, 1, ACCURACY).inverseCumulativeProbability(p), df);
    }

    private static double quantile(double p, double z, double df) {
        double expansion = cornishFisher(z, df);
        return df >= EXPANSION_FROM ? expansion : newton(new TDistribution(null, df, ACCURACY), p, expansion);
    }

    /**
     * Newton's steps on the CDF from the expansion's estimate, until the error a step leaves (of its square) is below
     * 1e-13 relative or the steps stop shrinking (the CDF's own rounding): the CDF is concave above zero, so the steps
     * approach the root from below. Two to four CDF evaluations, where commons-math3's bracketing solver takes some
     * thirty (most of a comparison's interval time).
     */
    private static double newton(TDistribution t, double p, double start) {
        double x = start;
        double last = Double.POSITIVE_INFINITY;
        for (int step = 0; step < MAX_STEPS; step++) {
            double delta = (t.cumulativeProbability(x) - p) / t.density(x);
            if (Math.abs(delta) >= last) {
                return x;
            }
            x -= delta;
            last = Math.abs(delta);
            // Newton's error after a step of d is about |F''/2F'| d^2, and |F''/F'| = (df + 1) x / (df + x^2) stays
            // below 2 at these quantiles: the next step would be below the tolerance, so it need not be taken.
            if (last * last <= STEP_TOLERANCE * x) {
                return x;
            }
        }
        return x;
    }

    /** Four terms of the Cornish-Fisher expansion (Abramowitz and Stegun 26.7.5): below the quantile for small df. */
    private static double cornishFisher(double z, double df) {
        double z2 = z * z;
        double g1 = z * (z2 + 1) / 4;
        double g2 = z * ((5 * z2 + 16) * z2 + 3) / 96;
        double g3 = z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384;
        double g4 = z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160;
        return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
    }
}
