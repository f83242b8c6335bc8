package dev.podium.query.view;

import dev.podium.query.chart.Chart;
import dev.podium.query.data.RunSummary;
import java.util.List;

/**
 * The local run(s) beside the published devices: each curve over {@code param} normalised to its own value at the first
 * parameter value ({@code baseValue}, workers=0), never ranked against each other. What /api/v1/local returns.
 */
public record LocalView(
        LocalQuery query,
        String baseValue,
        String unit,
        List<String> values,
        List<Curve> local,
        List<Curve> published,
        Chart chart,
        List<RunSummary> runs,
        List<Source> sources,
        String compareLink,
        String publishedCompareLink) {

    /**
     * One device under one setting of the other key dimensions (held fixed along the curve). {@code note} marks a curve
     * that is not like the others (a different dataloader, or no value at the base setting, so not normalised).
     */
    public record Curve(
            String deviceId, String deviceLabel, String source, String setting, String note, List<Point> points) {}

    /** The value at one parameter setting: mean with n and CI95 over {@code runs} runs, and mean ÷ the base-setting mean. */
    public record Point(
            String value,
            String keyId,
            Double mean,
            int n,
            int runs,
            Double ci95Low,
            Double ci95High,
            Double normalised,
            String normalisedText) {}

    /** A publication with figures about the published benchmark. */
    public record Source(String source, String title, String url) {}

    public String link() {
        return query.link().build();
    }

    public String jsonLink() {
        return query.link().build().replaceFirst("^/local", "/api/v1/local");
    }

    /** True when the measured benchmark has no completed result yet (the agent may still be running, or could not run). */
    public boolean noLocalResult() {
        return local.isEmpty();
    }
}
