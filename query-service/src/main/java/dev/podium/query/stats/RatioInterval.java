package dev.podium.query.stats;

/**
 * A ratio of one device's (or configuration's) metric to a baseline's, oriented so that above 1 is better than the
 * baseline, with its 95% confidence interval and how it was computed. {@code method} is {@link #WELCH_LOG}; {@code df}
 * is the Welch degrees of freedom.
 */
public record RatioInterval(double ratio, double low, double high, String method, int n, int baselineN, Double df) {

    /** A Welch t interval on the difference of the means of the log values, exponentiated: a geometric-mean ratio. */
    public static final String WELCH_LOG = "welch-log-t";

    /** True when the interval excludes 1: the difference is significant at the 5% level. */
    public boolean significant() {
        return low > 1 || high < 1;
    }

    /** "faster"/"better" above 1, "worse" below 1, or "no significant difference" when the interval covers 1. */
    public String verdict() {
        return !significant() ? "no significant difference" : low > 1 ? "better than baseline" : "worse than baseline";
    }
}
