package dev.podium.events.model;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The 0.975 quantile of Student's t distribution, the one every 95% interval in Podium uses (agents' statistics,
 * leaderboard rows, comparison ratios), exact for any degrees of freedom, whole or not (Welch's df rarely is whole).
 */
public final class StudentT {

    /** Absolute accuracy of the inverse CDF: the quantiles are of order 2, so about 1e-13 relative. */
    private static final double ACCURACY = 1e-13;
    /**
     * Beyond this many degrees of freedom commons-math3's incomplete beta function loses digits (1.4e-7 at 1e9), while
     * two terms of the Cornish-Fisher expansion around the normal quantile leave an error of order 1e-16.
     */
    private static final double EXPANSION_FROM = 1e5;

    private static final double NORMAL_975 =
            new NormalDistribution(null, 0, 1, ACCURACY).inverseCumulativeProbability(0.975);

    private StudentT() {}

    /** The 0.975 quantile for {@code df} degrees of freedom (df of at least 1; infinite gives the normal quantile). */
    public static double quantile975(double df) {
        if (!(df >= 1)) {
            throw new IllegalArgumentException("degrees of freedom must be 1 or more, not " + df);
        }
        if (df >= EXPANSION_FROM) {
            double z = NORMAL_975;
            double z3 = z * z * z;
            return z + (z3 + z) / (4 * df) + (5 * z3 * z * z + 16 * z3 + 3 * z) / (96 * df * df);
        }
        // No random generator: the distribution is only inverted here, and commons-math3 would seed one per instance.
        return new TDistribution(null, df, ACCURACY).inverseCumulativeProbability(0.975);
    }
}
