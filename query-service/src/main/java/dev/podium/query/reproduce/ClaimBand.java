package dev.podium.query.reproduce;

import dev.podium.events.model.StudentT;
import dev.podium.events.published.ClaimValue;
import dev.podium.events.published.Precision;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.RatioBasis;
import dev.podium.query.stats.Equivalence;
import dev.podium.query.stats.LogDifference;
import dev.podium.query.stats.Margin;
import dev.podium.query.stats.RunsNeeded;
import java.util.Locale;

/**
 * What a reproduction checks a claimed ratio against: the claimed value as times ({@code low} = {@code high}) or the
 * claimed range, and the tolerance on the log ratio around it, the wider of the margin's log(1 + δ) and the claim's own
 * stated precision (half a unit in its last digit, one and a half when it says "about"). A measured ratio <b>holds</b>
 * when it is equivalent to the band (two one-sided tests at 5%: its 90% interval lies within [low, high] widened by the
 * tolerance), <b>does not hold</b> when its 95% interval excludes [low, high], and is inconclusive otherwise, with the
 * runs a side that would settle it.
 */
record ClaimBand(double low, double high, double logTolerance) {

    /** The band of a ratio claim with a value or a range, or null for a bound or n/a. */
    static ClaimBand of(PublishedClaim c, Margin margin) {
        if (c.ratio() == null) {
            return null;
        }
        boolean percent = c.ratio().form() == RatioBasis.RatioForm.PERCENT_MORE;
        double low;
        double high;
        if (c.value() instanceof ClaimValue.Exact e) {
            low = times(e.value(), percent);
            high = low;
        } else if (c.value() instanceof ClaimValue.Range r) {
            low = times(r.low(), percent);
            high = times(r.high(), percent);
        } else {
            return null;
        }
        double stated = Math.log1p(unit(c.precision(), c.value()) / (percent ? 100 : 1) / low);
        return new ClaimBand(low, high, Math.max(margin.logBound(), stated));
    }

    private static double times(double v, boolean percent) {
        return percent ? 1 + v / 100 : v;
    }

    /** Half a unit in the last digit stated, and one more when the claim says "about". */
    private static double unit(Precision precision, ClaimValue value) {
        int decimals = precision != null ? precision.decimals() : decimalsOf(value);
        double last = Math.pow(10, -decimals);
        return last / 2 + (precision != null && precision.approximate() ? last : 0);
    }

    private static int decimalsOf(ClaimValue value) {
        double v = value instanceof ClaimValue.Exact e ? e.value() : ((ClaimValue.Range) value).low();
        return Math.max(0, java.math.BigDecimal.valueOf(v).stripTrailingZeros().scale());
    }

    /** The outcome for a measured difference of logs. */
    Check check(LogDifference w) {
        double from = Math.log(low);
        double to = Math.log(high);
        int runs = RunsNeeded.of(w, logTolerance + (to - from) / 2).toShowSame();
        if (Equivalence.tostP(w, from - logTolerance, to + logTolerance) < 0.05) {
            return new Check(true, runs, 0);
        }
        double t = w.se() == 0 ? 0 : StudentT.quantile975(w.df());
        if (w.d() + t * w.se() < from || w.d() - t * w.se() > to) {
            return new Check(false, runs, 0);
        }
        return new Check(null, runs, Math.max(0, runs - Math.min(w.n(), w.baselineN())));
    }

    /** "±5%", the tolerance as pages show it. */
    String toleranceText() {
        double percent = Math.expm1(logTolerance) * 100;
        return "\u00b1"
                + String.format(Locale.ROOT, percent < 10 ? "%.1f" : "%.0f", percent)
                        .replaceAll("\\.0$", "") + "%";
    }

    /**
     * {@code holds}: true, false, or null when inconclusive; {@code runsPerSide} the runs a side that show equivalence
     * to the claim at 80% power at the variation measured; {@code moreRuns} how many more than the fewer side has, 0
     * once decided.
     */
    record Check(Boolean holds, int runsPerSide, int moreRuns) {}
}
