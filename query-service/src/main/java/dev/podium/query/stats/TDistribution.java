package dev.podium.query.stats;

/**
 * Student's t distribution for any positive, also fractional, degrees of freedom (Welch's df is rarely whole): the CDF
 * through the regularised incomplete beta function (continued fraction, Numerical Recipes 6.4) and quantiles by
 * bracketed Newton steps on it, accurate to about 1e-10.
 */
public final class TDistribution {

    private TDistribution() {
    }

    /** P(T <= t) for {@code df} degrees of freedom. */
    public static double cdf(double t, double df) {
        if (!(df > 0)) {
            throw new IllegalArgumentException("degrees of freedom must be positive");
        }
        if (Double.isInfinite(t)) {
            return t > 0 ? 1 : 0;
        }
        double x = df / (df + t * t);
        double tail = 0.5 * regularizedBeta(x, df / 2, 0.5);
        return t > 0 ? 1 - tail : tail;
    }

    /**
     * The 0.975 quantile, the one every 95% interval needs, from a table: cubic interpolation in 1/df between 2,048 exact
     * quantiles (df from 1 to infinity), within 1e-10 of {@link #quantile} (tested). A comparison page asks for one per
     * cell, hundreds per request, and an exact quantile costs a dozen incomplete beta evaluations. Below one degree of
     * freedom, which Welch's df never is, the exact quantile.
     */
    public static double quantile975(double df) {
        if (!(df >= 1)) {
            return quantile(0.975, df);
        }
        return Quantiles975.at(1 / df);
    }

    /** The table behind {@link #quantile975}, built on first use (about 20 ms). */
    private static final class Quantiles975 {

        private static final int STEPS = 2048;
        /** TABLE[k]: the quantile at u = k / STEPS, where u = 1/df (u = 0: the normal quantile). */
        private static final double[] TABLE = new double[STEPS + 1];

        static {
            TABLE[0] = NORMAL_975;
            for (int k = 1; k <= STEPS; k++) {
                TABLE[k] = quantile(0.975, (double) STEPS / k);
            }
        }

        static double at(double u) {
            double x = u * STEPS;
            // The cubic through four neighbouring nodes, the two around x in the middle except at the ends of the table.
            int base = Math.max(0, Math.min((int) x - 1, STEPS - 3));
            double t = x - base;
            double y0 = TABLE[base];
            double y1 = TABLE[base + 1];
            double y2 = TABLE[base + 2];
            double y3 = TABLE[base + 3];
            return -y0 * (t - 1) * (t - 2) * (t - 3) / 6 + y1 * t * (t - 2) * (t - 3) / 2
                    - y2 * t * (t - 1) * (t - 3) / 2 + y3 * t * (t - 1) * (t - 2) / 6;
        }
    }

    /** The 0.975 quantile of the standard normal distribution, the t quantile at infinite df. */
    static final double NORMAL_975 = 1.959963984540054;

    /** The {@code p} quantile (0 < p < 1). */
    public static double quantile(double p, double df) {
        if (!(p > 0 && p < 1)) {
            throw new IllegalArgumentException("p must lie in (0, 1)");
        }
        if (p == 0.5) {
            return 0;
        }
        if (p < 0.5) {
            return -quantile(1 - p, df);
        }
        double lo = 0;
        double hi = 1;
        while (cdf(hi, df) < p) {
            hi *= 2;
            if (hi > 1e12) {
                return hi;
            }
        }
        // Newton's method on the CDF, kept inside the bracket (a bisection step whenever Newton would leave it): a
        // comparison page asks for one quantile per cell, and bisection alone took some forty CDF evaluations each.
        double x = (lo + hi) / 2;
        for (int i = 0; i < 200; i++) {
            double f = cdf(x, df) - p;
            if (f < 0) {
                lo = x;
            } else {
                hi = x;
            }
            double next = x - f / density(x, df);
            if (!(next > lo && next < hi)) {
                next = (lo + hi) / 2;
            }
            if (Math.abs(next - x) <= 1e-13 * Math.max(1, x) || hi - lo <= 1e-13 * Math.max(1, hi)) {
                return next;
            }
            x = next;
        }
        return x;
    }

    /** The density of T at {@code t}. */
    static double density(double t, double df) {
        return Math.exp(logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI)
                - (df + 1) / 2 * Math.log1p(t * t / df));
    }

    /** I_x(a, b). */
    static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
        if (x < (a + 1) / (a + b + 2)) {
            return Math.exp(lnFront) * continuedFraction(x, a, b) / a;
        }
        return 1 - Math.exp(lnFront) * continuedFraction(1 - x, b, a) / b;
    }

    private static double continuedFraction(double x, double a, double b) {
        final double tiny = 1e-300;
        double qab = a + b;
        double qap = a + 1;
        double qam = a - 1;
        double c = 1;
        double d = 1 - qab * x / qap;
        d = Math.abs(d) < tiny ? tiny : d;
        d = 1 / d;
        double h = d;
        for (int m = 1; m <= 10_000; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1 + aa * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            h *= d * c;
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1 + aa * d;
            d = Math.abs(d) < tiny ? tiny : d;
            c = 1 + aa / c;
            c = Math.abs(c) < tiny ? tiny : c;
            d = 1 / d;
            double del = d * c;
            h *= del;
            if (Math.abs(del - 1) < 1e-15) {
                break;
            }
        }
        return h;
    }

    /** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9), relative error below 1e-13. */
    static double logGamma(double x) {
        final double[] c = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
        }
        x -= 1;
        double sum = c[0];
        double t = x + 7.5;
        for (int i = 1; i < 9; i++) {
            sum += c[i] / (x + i);
        }
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
