package dev.podium.query.serving;

import dev.podium.events.model.StudentT;
import dev.podium.query.stats.Samples;

/**
 * A point's measured mean with its standard error {@code se} from the {@code samples} values its interval rests on
 * (samples - 1 degrees of freedom); se is NaN where a single value or a missing interval gives none.
 */
record Measured(double mean, double se, int samples) {

    /**
     * From a leaderboard row's mean and 95% interval, divided by {@code scale} (the accelerators, for y per accelerator):
     * se is the interval's half-width over t(0.975, samples - 1), the samples being the runs' means from
     * {@link Samples#RUN_MEANS_FROM} runs on and the repetitions below, as the row's interval was computed.
     */
    static Measured of(ServingRow row, double scale) {
        int samples = row.runs() >= Samples.RUN_MEANS_FROM ? row.runs() : row.n();
        boolean interval = samples >= 2 && row.ci95Low() != null && row.ci95High() != null;
        double se = interval
                ? (row.ci95High() - row.ci95Low()) / 2 / StudentT.quantile975(samples - 1) / scale
                : Double.NaN;
        return new Measured(row.mean() / scale, se, samples);
    }

    double df() {
        return samples - 1;
    }
}
