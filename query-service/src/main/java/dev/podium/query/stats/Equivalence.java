package dev.podium.query.stats;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.podium.events.model.StudentT;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The one verdict a measured ratio gets at a margin δ, by two one-sided tests (TOST) on the log of the ratio with bounds
 * ±log(1 + δ): {@code FASTER} or {@code SLOWER} when the 95% interval lies beyond the margin; when the 90% interval lies
 * within ±log(1 + δ) (equivalence at the 5% level), {@code FASTER_WITHIN} or {@code SLOWER_WITHIN} if the 95% interval
 * still excludes 1, else {@code SAME}; {@code INCONCLUSIVE} otherwise. An interval that only straddles 1 says nothing
 * about sameness, which is why "no significant difference" is not a verdict. {@code low90} and {@code high90} are the
 * ratio's 90% interval, {@code pValue} the TOST p-value (the larger of the two one-sided ones), {@code runs} how many runs
 * a side would settle it ({@link #runs}). Oriented like the ratio: above 1 is better (faster) than the baseline. Its JSON
 * names its fields in one order: Jackson puts the derived ones after the components in whatever order reflection gives.
 */
@JsonPropertyOrder({"call", "marginPercent", "low90", "high90", "pValue", "runs", "margin", "verdict"})
public record Equivalence(
        Call call,
        double marginPercent,
        double low90,
        double high90,
        double pValue,
        @JsonIgnore LogDifference difference) {

    /** The verdicts, each with its words at a margin. */
    public enum Call {
        FASTER,
        SLOWER,
        FASTER_WITHIN,
        SLOWER_WITHIN,
        SAME,
        INCONCLUSIVE
    }

    /** The verdict for the better-oriented difference {@code w} at margin {@code m}. */
    public static Equivalence of(LogDifference w, Margin m) {
        double b = m.logBound();
        double t95 = w.se() == 0 ? 0 : StudentT.quantile975(w.df());
        double t90 = w.se() == 0 ? 0 : StudentT.quantile(0.95, w.df());
        double low95 = w.d() - t95 * w.se();
        double high95 = w.d() + t95 * w.se();
        double low90 = w.d() - t90 * w.se();
        double high90 = w.d() + t90 * w.se();
        Call call;
        if (low95 > b) {
            call = Call.FASTER;
        } else if (high95 < -b) {
            call = Call.SLOWER;
        } else if (low90 > -b && high90 < b) {
            call = low95 > 0 ? Call.FASTER_WITHIN : high95 < 0 ? Call.SLOWER_WITHIN : Call.SAME;
        } else {
            call = Call.INCONCLUSIVE;
        }
        return new Equivalence(call, m.percent(), Math.exp(low90), Math.exp(high90), tostP(w, -b, b), w);
    }

    /**
     * The TOST p-value of the difference {@code w} against the bounds {@code low} and {@code high} of the log ratio: the
     * larger of P(T ≥ (d - low)/se) and P(T ≤ (d - high)/se) under Student's t at the Welch df.
     */
    public static double tostP(LogDifference w, double low, double high) {
        if (w.se() == 0) {
            return w.d() > low && w.d() < high ? 0 : 1;
        }
        TDistribution t = new TDistribution(null, w.df(), 1e-12);
        double pLow = 1 - t.cumulativeProbability((w.d() - low) / w.se());
        double pHigh = t.cumulativeProbability((w.d() - high) / w.se());
        return Math.max(pLow, pHigh);
    }

    /** The runs a side that would settle the verdict at this margin. */
    @JsonProperty("runs")
    public RunsNeeded runs() {
        return RunsNeeded.of(difference, new Margin(marginPercent).logBound());
    }

    /** The verdict in words, with its margin: "faster", "faster by less than 5%", "same within ±5%", "inconclusive at ±5%". */
    @JsonProperty("verdict")
    public String text() {
        String margin = new Margin(marginPercent).text();
        return switch (call) {
            case FASTER -> "faster";
            case SLOWER -> "slower";
            case FASTER_WITHIN -> "faster by less than " + margin;
            case SLOWER_WITHIN -> "slower by less than " + margin;
            case SAME -> "same within \u00b1" + margin;
            case INCONCLUSIVE -> "inconclusive at \u00b1" + margin;
        };
    }

    /** "±5%", the margin as pages show it. */
    @JsonProperty("margin")
    public String marginText() {
        return "\u00b1" + new Margin(marginPercent).text();
    }
}
