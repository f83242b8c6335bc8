package dev.podium.events.model;

import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * Distribution-free confidence intervals of a percentile from order statistics. Of n values from any continuous
 * distribution, the number K below its p-quantile is Binomial(n, p), so the interval [x(l), x(u)] of the sorted values
 * (ranks from 1) covers the quantile with probability P(l ≤ K ≤ u - 1). Each tail is kept at or under half of 1 - the
 * confidence (equal tails, the conservative choice; ties only raise the coverage). A bound whose rank would fall outside
 * 1..n does not exist: too few values reach that far into the tail, and the interval is open on that side.
 */
public final class OrderStatistics {

    /** The confidence of every percentile interval Podium shows. */
    public static final double CONFIDENCE = 0.95;

    private OrderStatistics() {}

    /**
     * The ranks of the interval of the {@code p}th quantile (0 < p < 1) of {@code n} values: {@code lower} and
     * {@code upper} from 1, each null where no rank reaches, and the exact coverage of what is given (an open side
     * counts as unbounded).
     */
    public record Ranks(Integer lower, Integer upper, double coverage) {}

    public static Ranks ranks(int n, double p, double confidence) {
        if (n < 1 || !(p > 0 && p < 1) || !(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("ranks of a quantile strictly between 0 and 1 of at least one value");
        }
        double tail = (1 - confidence) / 2;
        BinomialDistribution below = new BinomialDistribution(null, n, p);
        // the largest l with P(K <= l - 1) <= tail: one past the smallest k whose cdf passes the tail
        int l = below.inverseCumulativeProbability(tail);
        if (below.cumulativeProbability(l) <= tail) {
            l++;
        }
        // the smallest u with P(K >= u) <= tail, that is P(K <= u - 1) >= 1 - tail
        int u = below.inverseCumulativeProbability(1 - tail) + 1;
        Integer lower = l >= 1 ? l : null;
        Integer upper = u <= n ? u : null;
        double coverage = (upper == null ? 1 : below.cumulativeProbability(u - 1))
                - (lower == null ? 0 : below.cumulativeProbability(l - 1));
        return new Ranks(lower, upper, coverage);
    }

    /**
     * Whether {@code n} values are too few for the {@code p}th percentile to mean what its name says: fewer than one value
     * is expected beyond it on its narrower side (a p99 of fewer than 100 values is at best the largest one).
     */
    public static boolean tooFew(int n, double p) {
        return n * Math.min(p, 1 - p) < 1;
    }

    /** The interval of sorted values' {@code p}th quantile at {@link #CONFIDENCE}, each side null where it is open. */
    public static PercentileBounds bounds(double[] sorted, double p) {
        Ranks r = ranks(sorted.length, p, CONFIDENCE);
        return new PercentileBounds(
                r.lower() == null ? null : sorted[r.lower() - 1], r.upper() == null ? null : sorted[r.upper() - 1]);
    }
}
