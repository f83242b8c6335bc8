package dev.podium.events.model;

/** Two-sided 95% quantiles of Student's t distribution, from the standard table; beyond 120 degrees of freedom, 1.96. */
public final class StudentT {

    private static final double[] Q975 = {
        Double.NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

    private StudentT() {
    }

    /** The 0.975 quantile for {@code df} degrees of freedom (df of at least 1). */
    public static double quantile975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be 1 or more");
        }
        if (df < Q975.length) {
            return Q975[df];
        }
        if (df <= 40) {
            return 2.021;
        }
        if (df <= 60) {
            return 2.000;
        }
        if (df <= 120) {
            return 1.980;
        }
        return 1.960;
    }
}
