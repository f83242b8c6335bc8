package dev.podium.query.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * The mean of a per-run figure over a cell's runs with its 95% t interval (the runs are the samples); no bounds with
 * fewer than two runs.
 */
public record RunInterval(int runs, double mean, Double low, Double high) {

    /** From the count, mean and sample variance of the runs' values. */
    static RunInterval of(int runs, double mean, double variance) {
        if (runs < 2) {
            return new RunInterval(runs, mean, null, null);
        }
        double t = new TDistribution(null, runs - 1, 1e-12).inverseCumulativeProbability(0.975);
        double half = t * Math.sqrt(Math.max(0, variance) / runs);
        return new RunInterval(runs, mean, mean - half, mean + half);
    }
}
