package dev.podium.query.serving;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.podium.events.model.StudentT;
import dev.podium.query.stats.LogEstimate;

/**
 * One curve's y at the target: {@code status} says whether it was reached; when it was, {@code value} is y interpolated
 * between the measured points at {@code from} and {@code to} (values of the curve's parameter, the same where a point
 * meets the target exactly), with its standard error {@code se}, Welch–Satterthwaite {@code df} and 95% interval
 * {@code low}–{@code high} (null where a point it rests on has no interval), and {@code samples} the fewest values
 * (runs' means, or one or two runs' repetitions) behind those points.
 */
public record AtTarget(
        Status status,
        Double value,
        Double low,
        Double high,
        Double se,
        Double df,
        String from,
        String to,
        int samples) {

    /**
     * Reached; not reached (every point misses the target); beyond every point (every point meets it); or not measured
     * (no point of the curve has the target metric).
     */
    public enum Status {
        REACHED,
        NOT_REACHED,
        BEYOND_EVERY_POINT,
        NOT_MEASURED
    }

    static AtTarget missed(Status status) {
        return new AtTarget(status, null, null, null, null, null, null, null, 0);
    }

    static AtTarget reached(double value, double se, double df, String from, String to, int samples) {
        if (!Double.isFinite(se)) {
            return new AtTarget(Status.REACHED, value, null, null, null, null, from, to, samples);
        }
        double half = se == 0 ? 0 : StudentT.quantile975(df) * se;
        return new AtTarget(Status.REACHED, value, value - half, value + half, se, df, from, to, samples);
    }

    /** Whether a ratio can rest on it: reached, with a positive value and an interval. */
    @JsonIgnore
    public boolean comparable() {
        return status == Status.REACHED && se != null && value > 0 && samples >= 2;
    }

    /**
     * The value on the log scale for a ratio (delta method: the log's standard error is se / value), one value's variance
     * taken as samples times its squared standard error, so that the runs a verdict needs count values per point.
     */
    LogEstimate logEstimate() {
        double relative = se / value;
        return new LogEstimate(Math.log(value), samples * relative * relative, samples, df);
    }
}
