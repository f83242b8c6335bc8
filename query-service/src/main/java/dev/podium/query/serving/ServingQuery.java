package dev.podium.query.serving;

import dev.podium.query.view.BadRequest;

/**
 * What the serving view shows: a benchmark's throughput metric (y, per accelerator) against a per-user speed or a latency
 * (x), over the values of {@code param} (the concurrency) that each curve runs through; and y at a target on
 * {@code targetMetric} (p99 TTFT ≤ {@code target} ms by default, or per-user speed ≥ a number of tokens/s), each device
 * against {@code baseline} at the equivalence {@code margin}. A null target, target metric, baseline or margin takes the
 * view's default.
 */
public record ServingQuery(
        String benchmark,
        String x,
        String y,
        String param,
        String targetMetric,
        Double target,
        String baseline,
        String margin) {

    public static final String THROUGHPUT = "output_token_throughput";
    public static final String PER_USER = "output_token_throughput_per_user";
    public static final String CONCURRENCY = "concurrency";
    public static final String P99_TTFT = "ttft_p99_ms";

    /** The largest target taken: a million ms or tokens/s lies beyond any serving curve and any double's trouble. */
    static final double MOST_TARGET = 1e6;

    public ServingQuery {
        benchmark = blankToNull(benchmark);
        x = blankToNull(x) == null ? PER_USER : x.strip();
        y = blankToNull(y) == null ? THROUGHPUT : y.strip();
        param = blankToNull(param) == null ? CONCURRENCY : param.strip();
        targetMetric = blankToNull(targetMetric);
        baseline = blankToNull(baseline);
        margin = blankToNull(margin);
    }

    /** A query from a request's text; a target that is not a positive number up to {@link #MOST_TARGET} answers 400. */
    public static ServingQuery of(
            String benchmark,
            String x,
            String y,
            String param,
            String targetMetric,
            String target,
            String baseline,
            String margin) {
        return new ServingQuery(benchmark, x, y, param, targetMetric, target(target), baseline, margin);
    }

    static Double target(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            double v = text.length() > 20 ? Double.NaN : Double.parseDouble(text.strip());
            if (v > 0 && v <= MOST_TARGET) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below, as any other bad target
        }
        throw BadRequest.because("target must be a number above 0 and at most 1000000 (ms of latency or tokens/s), not "
                + (text.length() > 20 ? text.substring(0, 20) + "..." : text));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
