package dev.podium.query.serving;

import java.util.List;

/**
 * Where a device's curve crosses a target on one metric (p99 TTFT ≤ 200 ms, per-user speed ≥ 30 tokens/s), and its y
 * there, interpolated linearly between the two neighbouring points (in the order of the curve's parameter) whose target
 * metric lies on either side; never extrapolated beyond the points measured. Where the curve crosses more than once, the
 * crossing with the most y counts, since that is what the device delivers within the target.
 *
 * <p>With t the target metric, w = (target - t₁)/(t₂ - t₁) and slope = (y₂ - y₁)/(t₂ - t₁), y = (1 - w)·y₁ + w·y₂ and,
 * by the delta method over the four independent means (a point's t and y are taken as uncorrelated: rows carry no
 * covariance), Var(y) = (1 - w)²·se(y₁)² + w²·se(y₂)² + slope²·((1 - w)²·se(t₁)² + w²·se(t₂)²), with the
 * Welch–Satterthwaite df (Σcᵢ)² / Σ(cᵢ²/dfᵢ) over those terms, each mean's df its samples - 1.
 */
final class TargetCrossing {

    private TargetCrossing() {}

    /** A measured point of a curve: its parameter value, target metric t and y. */
    record Reading(String param, Measured t, Measured y) {}

    /** y at {@code target} along {@code points} (in the curve's order); t meets the target at or below it if lower is better. */
    static AtTarget at(List<Reading> points, double target, boolean lowerIsBetter) {
        AtTarget best = null;
        for (int i = 0; i < points.size(); i++) {
            Reading a = points.get(i);
            AtTarget here = null;
            if (i + 1 < points.size() && crosses(a, points.get(i + 1), target)) {
                here = between(a, points.get(i + 1), target);
            } else if (a.t().mean() == target) {
                here = AtTarget.reached(a.y().mean(), a.y().se(), a.y().df(), a.param(), a.param(), a.y().samples());
            }
            if (here != null && (best == null || here.value() > best.value())) {
                best = here;
            }
        }
        if (best != null || points.isEmpty()) {
            return best != null ? best : AtTarget.missed(AtTarget.Status.NOT_MEASURED);
        }
        boolean allMeet =
                points.stream().allMatch(p -> lowerIsBetter ? p.t().mean() <= target : p.t().mean() >= target);
        return AtTarget.missed(allMeet ? AtTarget.Status.BEYOND_EVERY_POINT : AtTarget.Status.NOT_REACHED);
    }

    private static boolean crosses(Reading a, Reading b, double target) {
        double t1 = a.t().mean();
        double t2 = b.t().mean();
        return t1 != t2 && Math.min(t1, t2) <= target && target <= Math.max(t1, t2);
    }

    private static AtTarget between(Reading a, Reading b, double target) {
        double w = (target - a.t().mean()) / (b.t().mean() - a.t().mean());
        double slope = (b.y().mean() - a.y().mean()) / (b.t().mean() - a.t().mean());
        double value = (1 - w) * a.y().mean() + w * b.y().mean();
        double[] weights = {1 - w, w, slope * (1 - w), slope * w};
        Measured[] means = {a.y(), b.y(), a.t(), b.t()};
        double variance = 0;
        double denominator = 0;
        double dfs = 0;
        int samples = Integer.MAX_VALUE;
        for (int k = 0; k < means.length; k++) {
            if (weights[k] != 0) {
                double c = weights[k] * weights[k] * means[k].se() * means[k].se();
                variance += c;
                denominator += c == 0 ? 0 : c * c / means[k].df();
                dfs += means[k].df();
                samples = Math.min(samples, means[k].samples());
            }
        }
        double df = denominator == 0 ? dfs : variance * variance / denominator;
        return AtTarget.reached(value, Math.sqrt(variance), df, a.param(), b.param(), samples);
    }

    /**
     * The default target of a group: the middle of the range of t that every curve measured, or of all its points' t
     * where the curves share none; null without points.
     */
    static Double middle(List<List<Reading>> curves) {
        double sharedLow = Double.NEGATIVE_INFINITY;
        double sharedHigh = Double.POSITIVE_INFINITY;
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (List<Reading> curve : curves) {
            if (!curve.isEmpty()) {
                double[] t =
                        curve.stream().mapToDouble(r -> r.t().mean()).sorted().toArray();
                sharedLow = Math.max(sharedLow, t[0]);
                sharedHigh = Math.min(sharedHigh, t[t.length - 1]);
                low = Math.min(low, t[0]);
                high = Math.max(high, t[t.length - 1]);
            }
        }
        if (low > high) {
            return null;
        }
        return sharedLow <= sharedHigh ? (sharedLow + sharedHigh) / 2 : (low + high) / 2;
    }
}
