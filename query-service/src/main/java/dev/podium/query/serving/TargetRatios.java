package dev.podium.query.serving;

import dev.podium.query.stats.Equivalence;
import dev.podium.query.stats.LogDifference;
import dev.podium.query.stats.Margin;
import dev.podium.query.stats.RatioEstimator;
import dev.podium.query.stats.RatioInterval;
import java.util.Map;

/**
 * The ratios of a group's curves at the target against one baseline curve, through the same Welch–Satterthwaite interval
 * on logs and the same equivalence verdict as every other ratio (RatioEstimator, Equivalence).
 */
final class TargetRatios {

    private TargetRatios() {}

    /**
     * The baseline curve's label: the first curve of device {@code requested} that reached the target with an interval,
     * else the first curve that did; null when none did.
     */
    static String baseline(Map<String, String> deviceByLabel, Map<String, AtTarget> atByLabel, String requested) {
        String first = null;
        for (Map.Entry<String, AtTarget> e : atByLabel.entrySet()) {
            if (e.getValue().comparable()) {
                if (deviceByLabel.get(e.getKey()).equals(requested)) {
                    return e.getKey();
                }
                first = first == null ? e.getKey() : first;
            }
        }
        return first;
    }

    /** The ratio of {@code at} to {@code base}, oriented so that above 1 is better; a note instead where there is none. */
    static ServingView.Ratio of(AtTarget at, AtTarget base, boolean lowerIsBetter, Margin margin) {
        if (base == null) {
            return new ServingView.Ratio(null, null, "no curve reached the target with an interval to compare against");
        }
        if (at.status() != AtTarget.Status.REACHED) {
            return new ServingView.Ratio(null, null, "no value at the target");
        }
        if (!at.comparable()) {
            return new ServingView.Ratio(null, null, "no interval: a point it rests on has a single run");
        }
        LogDifference w = RatioEstimator.difference(at.logEstimate(), base.logEstimate(), lowerIsBetter);
        RatioInterval interval = RatioEstimator.interval(w);
        if (!RatioEstimator.computable(interval)) {
            return new ServingView.Ratio(null, null, "values too far apart for a ratio");
        }
        return new ServingView.Ratio(interval, Equivalence.of(w, margin), null);
    }
}
