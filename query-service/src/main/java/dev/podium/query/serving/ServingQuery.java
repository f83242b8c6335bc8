package dev.podium.query.serving;

/**
 * What the serving view shows: a benchmark's throughput metric (y, per accelerator) against a per-user speed or a latency
 * (x), over the values of {@code param} (the concurrency) that each curve runs through.
 */
public record ServingQuery(String benchmark, String x, String y, String param) {

    public static final String THROUGHPUT = "output_token_throughput";
    public static final String PER_USER = "output_token_throughput_per_user";
    public static final String CONCURRENCY = "concurrency";

    public ServingQuery {
        benchmark = blankToNull(benchmark);
        x = blankToNull(x) == null ? PER_USER : x.strip();
        y = blankToNull(y) == null ? THROUGHPUT : y.strip();
        param = blankToNull(param) == null ? CONCURRENCY : param.strip();
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
