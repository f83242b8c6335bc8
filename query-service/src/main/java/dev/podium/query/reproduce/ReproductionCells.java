package dev.podium.query.reproduce;

import dev.podium.query.data.AdaptiveProgress;
import io.quarkus.qute.TemplateExtension;
import java.util.Locale;

/** Display values of a claim page's measured ratios, as properties ({@code {r.ratioText}}). */
@TemplateExtension
public final class ReproductionCells {

    private ReproductionCells() {}

    public static String ratioText(ReproductionView.Ratio r) {
        return times(r.ratio()) + "\u00d7";
    }

    public static String intervalText(ReproductionView.Ratio r) {
        return r.low() == null
                ? "cannot be computed (fewer than 2 runs a side)"
                : times(r.low()) + "\u2013" + times(r.high()) + "\u00d7";
    }

    public static String verdictText(ReproductionView.Ratio r) {
        if (r.notComparable() != null) {
            return "not comparable (" + r.notComparable() + "): the measured speed-up is context";
        }
        if (r.holds() == null) {
            return r.moreRuns() == null ? "not decided" : "inconclusive, " + r.moreRuns() + " more runs a side needed";
        }
        return r.holds() ? "holds here" : "does not hold here";
    }

    public static String verdictClass(ReproductionView.Ratio r) {
        if (r.notComparable() != null) {
            return "verdict-not-comparable";
        }
        return r.holds() == null ? "verdict-unknown" : r.holds() ? "verdict-holds" : "verdict-fails";
    }

    /** The ratio's verdict against 1 at the page's margin, or a dash without an interval. */
    public static String equivalenceText(ReproductionView.Ratio r) {
        return r.equivalence() == null ? "\u2014" : r.equivalence().text();
    }

    /**
     * "measured at 1 accelerator a run (the claim: 8)" for a reproduction at another number than the claim's, null for
     * one at the claim's own, whether asked for by its number or not.
     */
    public static String devicesText(ReproductionView view, ReproductionView.Reproduced r) {
        if (r.devices() == null || r.devices().equals(view.accelerators())) {
            return null;
        }
        return "measured at " + ReproductionService.acceleratorsText(r.devices()) + " a run (the claim: "
                + (view.accelerators() == null ? "not stated" : view.accelerators()) + ")";
    }

    /** The campaign that would settle the claim, "reproduce with 12 runs per side", or null when none can be said. */
    public static String suggestion(ReproductionView.Reproduced r) {
        return r.ratios().stream()
                .map(ReproductionView.Ratio::runsPerSide)
                .filter(java.util.Objects::nonNull)
                .max(Integer::compare)
                .map(n -> "reproduce with " + n + " runs per side")
                .orElse(null);
    }

    /** The half-width an adaptive reproduction's last decision measured, or why there is none yet. */
    public static String halfWidthText(AdaptiveProgress a) {
        return a.halfWidthPct() == null ? "not measured yet (3 runs a side needed)" : percent(a.halfWidthPct());
    }

    public static String targetText(AdaptiveProgress a) {
        return percent(a.targetHalfWidthPct());
    }

    private static String percent(double v) {
        return String.format(Locale.ROOT, "%.1f%%", v);
    }

    private static String times(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
