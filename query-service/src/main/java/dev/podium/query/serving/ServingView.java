package dev.podium.query.serving;

import dev.podium.query.stats.Equivalence;
import dev.podium.query.stats.RatioInterval;
import java.util.List;

/**
 * Throughput per accelerator against per-user speed (or a latency) for each device, over the concurrencies measured, one
 * group per comparison key without the concurrency. What /serving shows and /api/v1/serving returns.
 */
public record ServingView(
        ServingQuery query, List<String> metrics, List<Group> groups, boolean truncated, String message) {

    /** The curves of one key group, on one chart. */
    public record Group(
            String label,
            String xLabel,
            String yLabel,
            boolean xHigherIsBetter,
            List<Curve> curves,
            ScatterChart chart,
            Target target) {}

    /**
     * The target a group's curves are read at: {@code metric} at most {@code value} (lower is better) or at least it,
     * {@code defaulted} when the request gave none and it is the middle of the range every curve measured, and
     * {@code baseline} the curve (its label) each ratio is against, null when no curve reached the target with an
     * interval.
     */
    public record Target(
            String metric, double value, String unit, boolean lowerIsBetter, boolean defaulted, String baseline) {}

    /**
     * One device's points, in the order of the concurrency; its y at the group's target; and its ratio there to the
     * baseline curve (null for the baseline itself).
     */
    public record Curve(String deviceId, String deviceLabel, List<Point> points, AtTarget atTarget, Ratio ratio) {}

    /**
     * A curve's y at the target over the baseline's, oriented so that above 1 is better, with its 95% interval
     * (Welch–Satterthwaite on logs) and equivalence verdict at the page's margin; both null, and {@code note} saying why,
     * where either side has no value with an interval at the target.
     */
    public record Ratio(RatioInterval interval, Equivalence equivalence, String note) {}

    /**
     * One operating point: the concurrency, the key it was measured under, x and y (y per accelerator) with y's 95%
     * interval when repetitions exist, and whether no other point of the group beats it on both axes.
     */
    public record Point(
            String paramValue,
            String keyId,
            double x,
            double y,
            Double yLow,
            Double yHigh,
            int runs,
            int n,
            boolean onFront) {}
}
