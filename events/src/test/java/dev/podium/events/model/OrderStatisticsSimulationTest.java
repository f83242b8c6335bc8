package dev.podium.events.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

/**
 * Seeded simulation (seed 39) of how often the percentile interval covers the true percentile: lognormal latencies (a
 * skewed, long-tailed shape like TTFT's), 2,000 samples a case. Each case's coverage must be within 3 standard errors of
 * the exact coverage the ranks promise, which is at least 95%.
 */
class OrderStatisticsSimulationTest {

    private static final int REPETITIONS = 2_000;
    private static final double SIGMA = 0.6;

    @Test
    void percentileIntervalsCoverTheTruePercentileAsOftenAsPromised() {
        SplittableRandom random = new SplittableRandom(39);
        for (int n : new int[] {20, 100, 400}) {
            for (double p : new double[] {0.5, 0.9, 0.99}) {
                OrderStatistics.Ranks ranks = OrderStatistics.ranks(n, p, OrderStatistics.CONFIDENCE);
                double truth = Math.exp(SIGMA * normalQuantile(p));
                int covered = 0;
                double[] v = new double[n];
                for (int i = 0; i < REPETITIONS; i++) {
                    for (int j = 0; j < n; j++) {
                        v[j] = Math.exp(SIGMA * gaussian(random));
                    }
                    Arrays.sort(v);
                    PercentileBounds b = OrderStatistics.bounds(v, p);
                    if ((b.low() == null || b.low() <= truth) && (b.high() == null || truth <= b.high())) {
                        covered++;
                    }
                }
                double measured = covered / (double) REPETITIONS;
                double se = Math.sqrt(ranks.coverage() * (1 - ranks.coverage()) / REPETITIONS);
                assertThat(ranks.coverage()).isGreaterThanOrEqualTo(OrderStatistics.CONFIDENCE);
                assertThat(measured)
                        .as("coverage of p%s from %d values", p, n)
                        .isBetween(ranks.coverage() - 3 * se - 1e-9, ranks.coverage() + 3 * se + 1e-9);
            }
        }
    }

    private static double gaussian(SplittableRandom r) {
        // Box-Muller: SplittableRandom has no nextGaussian on Java 17
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    private static double normalQuantile(double p) {
        return new NormalDistribution(null, 0, 1).inverseCumulativeProbability(p);
    }
}
