package dev.podium.query.stats;

import dev.podium.query.chart.Chart;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * One history: the metric of one device under one comparison key over time (one point per valid run, its mean), the
 * levels the step detector fitted, the steps it found, and the mean per framework version. What /api/v1/history returns.
 */
public record HistoryView(
        String keyId,
        String canonical,
        String benchmark,
        String metric,
        String deviceId,
        String deviceLabel,
        String unit,
        String direction,
        String method,
        List<Point> points,
        List<Change> changes,
        List<Version> versions,
        Chart chart) {

    /** One run: when it started, its framework version, its mean and the fitted level it belongs to. */
    public record Point(
            int index,
            UUID runId,
            String runLink,
            Instant startedAt,
            String version,
            double mean,
            Integer n,
            double level,
            boolean stepHere) {}

    /**
     * A framework version's runs in this history: count, mean of their means, first and last run time, and its ratio to
     * the version before it (better-oriented, from its runs' values as {@link Samples} picks them; null for the first version or
     * without two values on each side).
     */
    public record Version(
            String version, int runs, double mean, Instant first, Instant last, RatioInterval vsPrevious) {

        public String ratioText() {
            return vsPrevious == null
                    ? null
                    : String.format(
                            Locale.ROOT,
                            "%.3f× (95%% CI %.3f–%.3f)",
                            vsPrevious.ratio(),
                            vsPrevious.low(),
                            vsPrevious.high());
        }
    }
}
