package dev.podium.events.validate;

import dev.podium.events.Envelope;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Statistics;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.RunCompleted;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's own reading of a RunCompleted's figures. Where a metric comes with its raw values, the statistics it
 * claims must be those the values give ({@link Statistics#of}), within a tolerance for rounding and for the coarse t
 * table of older agents (it put 2.021 where the exact 0.975 quantile for 31 degrees of freedom is 2.040, about 1% off
 * at most); a count must match the values and stay under {@link #MAX_COUNT}; and the checks that depend on values only
 * (repetitions, cv, positive and finite values) may not claim to pass when the values say otherwise. Figures without
 * raw values (a harness's own percentiles) cannot be recomputed and are kept as reported. Pure.
 */
public final class ServerStatistics {

    /** The largest count one metric may claim: sums of counts over every run of a key stay far from overflowing. */
    public static final int MAX_COUNT = 1_000_000;
    /** Relative tolerance of a figure, against the figure or the mean, whichever is larger: rounding. */
    static final double ROUNDING = 1e-4;
    /** Relative tolerance of an interval's half-width: a t quantile of older agents' table is up to about 1% off. */
    static final double T_TABLE = 0.025;

    private static final Pattern CV = Pattern.compile("cv_below_(\\d{1,3})pct");
    private static final Pattern CV_DETAIL = Pattern.compile("cv of (.+) = .*");
    private static final Pattern POSITIVE_DETAIL = Pattern.compile("(.+) values are positive and finite");
    private static final Pattern REPETITIONS_DETAIL = Pattern.compile("(\\d{1,9}) of (\\d{1,9}) repetitions.*");

    private ServerStatistics() {
    }

    /** What the figures of a RunCompleted claim that its values do not give; empty for every other event. */
    public static List<Violation> violations(Envelope e) {
        if (!(e.payload() instanceof RunCompleted r) || r.metrics() == null) {
            return List.of();
        }
        List<Violation> out = new ArrayList<>();
        Map<String, Metric> byName = new HashMap<>();
        for (int i = 0; i < r.metrics().size(); i++) {
            Metric m = r.metrics().get(i);
            byName.putIfAbsent(m.name(), m);
            checkMetric(m, "payload.metrics[" + i + "]", out);
        }
        if (r.validity() != null) {
            for (int j = 0; j < r.validity().size(); j++) {
                checkCheck(r.validity().get(j), byName, "payload.validity[" + j + "]", out);
            }
        }
        return out;
    }

    private static void checkMetric(Metric m, String path, List<Violation> out) {
        Statistics claimed = m.statistics();
        boolean hasValues = m.values() != null && !m.values().isEmpty();
        if (claimed == null) {
            return;
        }
        if (claimed.n() > MAX_COUNT) {
            out.add(new Violation(path + ".statistics.n", claimed.n() + " is over the limit of " + MAX_COUNT));
            return;
        }
        if (!hasValues) {
            return;
        }
        Statistics own = Statistics.of(m.values());
        String p = path + ".statistics.";
        if (claimed.n() != own.n()) {
            out.add(new Violation(p + "n", claimed.n() + " is not the " + own.n() + " values sent"));
            return;
        }
        double scale = Math.abs(own.mean());
        figure(p + "mean", claimed.mean(), own.mean(), scale, own.n(), out);
        figure(p + "median", claimed.median(), own.median(), scale, own.n(), out);
        figure(p + "stdev", claimed.stdev(), own.stdev(), scale, own.n(), out);
        figure(p + "min", claimed.min(), own.min(), scale, own.n(), out);
        figure(p + "max", claimed.max(), own.max(), scale, own.n(), out);
        figure(p + "cv", claimed.cv(), own.cv(), 0, own.n(), out);
        double ownHalf = (own.ci95High() - own.ci95Low()) / 2;
        double half = (claimed.ci95High() - claimed.ci95Low()) / 2;
        double centre = claimed.ci95Low() + half;
        double allowed = T_TABLE * ownHalf + ROUNDING * scale;
        if (!(Math.abs(half - ownHalf) <= allowed) || !(Math.abs(centre - own.mean()) <= allowed)) {
            out.add(new Violation(p + "ci95", String.format(Locale.ROOT, "[%s, %s] is not the interval the %d values give"
                    + " ([%s, %s])", claimed.ci95Low(), claimed.ci95High(), own.n(), own.ci95Low(), own.ci95High())));
        }
    }

    private static void figure(String path, double claimed, double own, double scale, int n, List<Violation> out) {
        double allowed = ROUNDING * Math.max(Math.abs(own), scale);
        if (!(Math.abs(claimed - own) <= allowed)) {
            out.add(new Violation(path, claimed + " is not what the " + n + " values give (" + own + ")"));
        }
    }

    /** A passing check the values contradict; checks the server cannot judge from the record are kept as reported. */
    private static void checkCheck(ValidityCheck c, Map<String, Metric> metrics, String path, List<Violation> out) {
        if (!c.passed() || c.detail() == null) {
            return;
        }
        Matcher cv = CV.matcher(c.name());
        Matcher cvDetail = CV_DETAIL.matcher(c.detail());
        if (cv.matches() && cvDetail.matches()) {
            Metric m = metrics.get(cvDetail.group(1));
            if (m != null && m.values() != null && m.values().size() >= 2) {
                double own = Statistics.of(m.values()).cv();
                if (own > Integer.parseInt(cv.group(1)) / 100.0 * (1 + ROUNDING)) {
                    out.add(new Violation(path + ".passed", String.format(Locale.ROOT,
                            "%s cannot pass: the cv of %s's values is %.2f%%", c.name(), m.name(), own * 100)));
                }
            }
            return;
        }
        Matcher positive = POSITIVE_DETAIL.matcher(c.detail());
        if (c.name().equals("positive_finite") && positive.matches()) {
            Metric m = metrics.get(positive.group(1));
            if (m != null && m.values() != null && !m.values().stream().allMatch(v -> v > 0 && Double.isFinite(v))) {
                out.add(new Violation(path + ".passed", "positive_finite cannot pass: " + m.name()
                        + " has values that are not positive"));
            }
            return;
        }
        Matcher reps = REPETITIONS_DETAIL.matcher(c.detail());
        if (c.name().equals("min_repetitions") && reps.matches()) {
            int done = Integer.parseInt(reps.group(1));
            int wanted = Integer.parseInt(reps.group(2));
            if (done == 0 || done < Math.min(wanted, 3)) {
                out.add(new Violation(path + ".passed", "min_repetitions cannot pass with " + c.detail()));
            }
        }
    }
}
