package dev.podium.query.stats;

import dev.podium.events.model.OrderStatistics;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One percentile of a run's per-request (or per-step) values, pooled over the run's repetitions, with its 95%
 * distribution-free interval ({@link OrderStatistics}) and whether the count is too few for that percentile (a p99 of
 * fewer than 100 requests), in which case it is never shown as precise.
 */
public record RequestPercentile(
        String name, int requests, double value, Double low, Double high, Interval interval, boolean tooFew) {

    /** What the interval is, from the count alone. */
    public enum Interval {
        /** Both sides. */
        CLOSED,
        /** Too few values reach the upper rank: the percentile is at least {@code low}. */
        OPEN_ABOVE,
        /** Too few values reach either rank. */
        NONE,
        /** The count gives a side the agent did not send (an agent that predates intervals). */
        NOT_REPORTED
    }

    /** A metric name that is itself a percentile a tool reports per repetition ({@code ttft_p99_ms}, {@code p50}). */
    private static final Pattern TOOL_PERCENTILE = Pattern.compile("(^|.*_)(p\\d{1,2}(\\.\\d+)?|median)(_.*|$)");

    /** Whether a metric without per-request values is a percentile its tool reported. */
    public static boolean toolReported(String metric) {
        return TOOL_PERCENTILE.matcher(metric).matches();
    }

    /** The row's p50, p90 and p99 (empty where the run gave no per-request values). */
    public static List<RequestPercentile> of(Integer requests, Double[] p50, Double[] p90, Double[] p99) {
        List<RequestPercentile> out = new ArrayList<>();
        if (requests == null || requests < 1) {
            return out;
        }
        add(out, "p50", 0.50, requests, p50);
        add(out, "p90", 0.90, requests, p90);
        add(out, "p99", 0.99, requests, p99);
        return out;
    }

    /** {@code value} is the percentile, its low and its high side. */
    private static void add(List<RequestPercentile> out, String name, double p, int n, Double[] value) {
        if (value[0] == null) {
            return;
        }
        OrderStatistics.Ranks ranks = OrderStatistics.ranks(n, p, OrderStatistics.CONFIDENCE);
        Interval interval;
        if ((ranks.lower() != null && value[1] == null) || (ranks.upper() != null && value[2] == null)) {
            interval = Interval.NOT_REPORTED;
        } else if (ranks.lower() != null && ranks.upper() != null) {
            interval = Interval.CLOSED;
        } else if (ranks.lower() != null) {
            interval = Interval.OPEN_ABOVE;
        } else {
            interval = Interval.NONE;
        }
        out.add(new RequestPercentile(
                name,
                n,
                value[0],
                interval == Interval.NOT_REPORTED ? null : value[1],
                interval == Interval.NOT_REPORTED ? null : value[2],
                interval,
                OrderStatistics.tooFew(n, p)));
    }
}
