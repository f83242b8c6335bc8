package dev.podium.query.reproduce;

import dev.podium.events.model.StudentT;

/**
 * A ratio of two measured means with its 95% interval, from each side's runs: the standard error of a mean is recovered
 * from its leaderboard interval (half-width over t at runs - 1), and the log ratio's variance is the sum of the two
 * relative variances (delta method), with the smaller side's runs - 1 as degrees of freedom, which errs wide.
 */
record MeasuredRatio(double ratio, Double low, Double high) {

    static MeasuredRatio of(Side compared, Side baseline) {
        double ratio = compared.mean() / baseline.mean();
        if (compared.runs() < 2
                || baseline.runs() < 2
                || compared.halfWidth() == null
                || baseline.halfWidth() == null) {
            return new MeasuredRatio(ratio, null, null);
        }
        double a = compared.standardError() / compared.mean();
        double b = baseline.standardError() / baseline.mean();
        double spread = StudentT.quantile975(Math.min(compared.runs(), baseline.runs()) - 1) * Math.sqrt(a * a + b * b);
        if (!Double.isFinite(spread)) {
            return new MeasuredRatio(ratio, null, null);
        }
        return new MeasuredRatio(ratio, ratio * Math.exp(-spread), ratio * Math.exp(spread));
    }

    /** Whether a published ratio (a value, or a range low..high) lies within, or overlaps, the measured interval. */
    Boolean holds(double claimedLow, double claimedHigh) {
        if (low == null) {
            return null;
        }
        return claimedLow <= high && claimedHigh >= low;
    }

    /** One side of the ratio: a leaderboard row's mean of the runs' means, its interval and its runs. */
    record Side(double mean, int runs, Double ci95Low, Double ci95High) {
        Double halfWidth() {
            return ci95Low == null || ci95High == null ? null : (ci95High - ci95Low) / 2;
        }

        double standardError() {
            return halfWidth() / StudentT.quantile975(runs - 1);
        }
    }
}
