package dev.podium.query.stats;

import dev.podium.query.page.Formats;
import dev.podium.query.view.RunView;
import io.quarkus.qute.TemplateExtension;

/** Display values of a run's request percentiles, as properties ({@code {p.intervalText}}). */
@TemplateExtension
public final class PercentileCells {

    private PercentileCells() {}

    /** Whether any metric of the run has percentiles of its requests. */
    public static boolean hasRequestPercentiles(RunView view) {
        return view.results().stream().anyMatch(r -> !r.percentiles().isEmpty());
    }

    public static String valueText(RequestPercentile p) {
        return Formats.num(p.value());
    }

    /** The 95% interval (asymmetric, so both ends), "at least" where only the lower side exists, a dash where neither does. */
    public static String intervalText(RequestPercentile p) {
        return switch (p.interval()) {
            case CLOSED -> Formats.num(p.low()) + " – " + Formats.num(p.high());
            case OPEN_ABOVE -> "≥ " + Formats.num(p.low());
            case NONE, NOT_REPORTED -> "—";
        };
    }

    /** Why the percentile is less than it looks, or empty. */
    public static String note(RequestPercentile p) {
        if (p.tooFew()) {
            return "too few requests for a " + p.name() + " (" + p.requests() + "): not a precise figure";
        }
        return switch (p.interval()) {
            case CLOSED -> "";
            case OPEN_ABOVE -> "too few requests for an upper bound";
            case NONE -> "too few requests for an interval";
            case NOT_REPORTED -> "no interval: the agent that ran it predates them";
        };
    }
}
