package dev.podium.events.model;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Collection;

/**
 * The per-run means behind one leaderboard entry, kept as exact sums. {@link BigDecimal} holds every double exactly and
 * exact addition does not depend on order, so an entry extended one batch of runs at a time has bit for bit the figures
 * of the same entry computed from all its runs at once, and a rebuild reproduces what live ingest wrote. The derived
 * figures follow {@link Statistics#of}: sample stdev (n - 1), Student-t 95% interval, cv = stdev / |mean|, and with one
 * run the interval collapses to the mean.
 */
public record RunMeans(int runs, BigDecimal sum, BigDecimal sumOfSquares, double min, double max) {

    /** Enough digits that the one rounding to a double is the only one that shows. */
    private static final MathContext DIVISION = new MathContext(40);

    public static final RunMeans NONE =
            new RunMeans(0, BigDecimal.ZERO, BigDecimal.ZERO, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);

    public RunMeans {
        if (runs < 0 || sum == null || sumOfSquares == null) {
            throw new IllegalArgumentException("runs must be 0 or more and the sums present");
        }
    }

    public static RunMeans of(Collection<Double> means) {
        RunMeans all = NONE;
        for (double mean : means) {
            all = all.plus(mean);
        }
        return all;
    }

    /** With one more run's mean, which must be finite (events carry no other). */
    public RunMeans plus(double mean) {
        if (!Double.isFinite(mean)) {
            throw new IllegalArgumentException("a run mean must be finite, not " + mean);
        }
        BigDecimal x = new BigDecimal(mean);
        return new RunMeans(
                runs + 1, sum.add(x), sumOfSquares.add(x.multiply(x)), Math.min(min, mean), Math.max(max, mean));
    }

    public RunMeans plus(RunMeans other) {
        return new RunMeans(
                runs + other.runs,
                sum.add(other.sum),
                sumOfSquares.add(other.sumOfSquares),
                Math.min(min, other.min),
                Math.max(max, other.max));
    }

    public double mean() {
        requireRuns();
        return sum.divide(BigDecimal.valueOf(runs), DIVISION).doubleValue();
    }

    /** Sample standard deviation: (runs * sumOfSquares - sum^2) / (runs * (runs - 1)) is exact and never negative. */
    public double stdev() {
        requireRuns();
        if (runs == 1) {
            return 0;
        }
        BigDecimal n = BigDecimal.valueOf(runs);
        BigDecimal numerator = n.multiply(sumOfSquares).subtract(sum.multiply(sum));
        return Math.sqrt(numerator
                .divide(n.multiply(BigDecimal.valueOf(runs - 1L)), DIVISION)
                .doubleValue());
    }

    /** Mean, sample stdev, the 95% interval and cv, each computed once (the exact divisions are not free). */
    public record Figures(double mean, double stdev, double ci95Low, double ci95High, double cv) {}

    public Figures figures() {
        double mean = mean();
        double stdev = stdev();
        double half = runs > 1 ? StudentT.quantile975(runs - 1) * stdev / Math.sqrt(runs) : 0;
        return new Figures(mean, stdev, mean - half, mean + half, mean == 0 ? 0 : stdev / Math.abs(mean));
    }

    /** The best run's mean: the largest where higher is better, else the smallest. */
    public double best(Direction direction) {
        requireRuns();
        return direction == Direction.HIGHER_IS_BETTER ? max : min;
    }

    private void requireRuns() {
        if (runs == 0) {
            throw new IllegalStateException("no runs");
        }
    }
}
