package dev.podium.query.serving;

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
            ScatterChart chart) {}

    /** One device's points, in the order of the concurrency. */
    public record Curve(String deviceId, String deviceLabel, List<Point> points) {}

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
