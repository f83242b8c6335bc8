package dev.podium.events.validate;

import dev.podium.events.Envelope;
import dev.podium.events.model.Metric;
import dev.podium.events.model.OrderStatistics;
import dev.podium.events.model.PercentileBounds;
import dev.podium.events.model.Percentiles;
import dev.podium.events.model.Statistics;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.RunCompleted;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * The server's own reading of a RunCompleted's figures. Where a metric comes with its raw values, the statistics it
 * claims must be those the values give ({@link Statistics#of}), within a tolerance for rounding and for the coarse t
 * table of older agents (it put 2.021 where the exact 0.975 quantile for 31 degrees of freedom is 2.040, about 1% off
 * at most); a count must match the values and stay under {@link #MAX_COUNT}; and the checks that depend on the record's
 * figures only ({@link ValueChecks}: repetitions, cv, positive and finite values, durations) may not claim to pass when
 * the values, their count or the run's duration say otherwise, nor be left out of a run whose checks all pass. Figures
 * without raw values (a harness's own percentiles) cannot be recomputed and are kept as reported. Pure.
 */
public final class ServerStatistics {

    /** The largest count one metric may claim: sums of counts over every run of a key stay far from overflowing. */
    public static final int MAX_COUNT = 1_000_000;
    /** Relative tolerance of a figure, against the figure or the mean, whichever is larger: rounding. */
    static final double ROUNDING = 1e-4;
    /** Relative tolerance of an interval's half-width: a t quantile of older agents' table is up to about 1% off. */
    static final double T_TABLE = 0.025;

    private ServerStatistics() {}

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
            checkChecks(r, byName, out);
        }
        return out;
    }

    private static void checkMetric(Metric m, String path, List<Violation> out) {
        if (m.percentiles() != null) {
            checkPercentiles(m.percentiles(), path + ".percentiles", out);
        }
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
            out.add(new Violation(
                    p + "ci95",
                    String.format(
                            Locale.ROOT,
                            "[%s, %s] is not the interval the %d values give" + " ([%s, %s])",
                            claimed.ci95Low(),
                            claimed.ci95High(),
                            own.n(),
                            own.ci95Low(),
                            own.ci95High())));
        }
    }

    /**
     * Percentiles come without their values, so only what their count decides is checked: they are in order, each interval
     * holds its percentile, and a side is given exactly where the count reaches its rank ({@link OrderStatistics}), so no
     * writer can show a closed interval of a p99 from 50 requests.
     */
    private static void checkPercentiles(Percentiles p, String path, List<Violation> out) {
        if (p.n() > MAX_COUNT) {
            out.add(new Violation(path + ".n", p.n() + " is over the limit of " + MAX_COUNT));
            return;
        }
        if (!(p.p50() <= p.p90() && p.p90() <= p.p99())) {
            out.add(new Violation(
                    path, "p50 " + p.p50() + ", p90 " + p.p90() + " and p99 " + p.p99() + " are not in order"));
        }
        bounds(p.n(), 0.50, p.p50(), p.p50Bounds(), path + ".p50_bounds", out);
        bounds(p.n(), 0.90, p.p90(), p.p90Bounds(), path + ".p90_bounds", out);
        bounds(p.n(), 0.99, p.p99(), p.p99Bounds(), path + ".p99_bounds", out);
    }

    private static void bounds(int n, double q, double value, PercentileBounds b, String path, List<Violation> out) {
        if (b == null || n < 1) {
            return;
        }
        OrderStatistics.Ranks r = OrderStatistics.ranks(n, q, OrderStatistics.CONFIDENCE);
        if ((r.lower() == null) != (b.low() == null)) {
            out.add(new Violation(path + ".low", side(r.lower(), n)));
        } else if (b.low() != null && !(b.low() <= value * (1 + ROUNDING))) {
            out.add(new Violation(path + ".low", b.low() + " is above the percentile " + value));
        }
        if ((r.upper() == null) != (b.high() == null)) {
            out.add(new Violation(path + ".high", side(r.upper(), n)));
        } else if (b.high() != null && !(b.high() >= value * (1 - ROUNDING))) {
            out.add(new Violation(path + ".high", b.high() + " is below the percentile " + value));
        }
    }

    private static String side(Integer rank, int n) {
        return rank == null
                ? "no rank of " + n + " values reaches this side of the interval, so it must be absent"
                : n + " values give this side (rank " + rank + "), so it must be present";
    }

    private static void figure(String path, double claimed, double own, double scale, int n, List<Violation> out) {
        double allowed = ROUNDING * Math.max(Math.abs(own), scale);
        if (!(Math.abs(claimed - own) <= allowed)) {
            out.add(new Violation(path, claimed + " is not what the " + n + " values give (" + own + ")"));
        }
    }

    /**
     * Passing checks the record's own figures contradict. A check of a known name must say, in its detail, what it
     * judged (the metric, the repetitions, the shortest repetition), and the server judges that again against the
     * values, the count of values and the run's duration, with the platform's limits rather than any the detail names.
     * Checks the server cannot judge from the record (warm-up, loss, the device) are kept as reported.
     */
    private static void checkChecks(RunCompleted r, Map<String, Metric> metrics, List<Violation> out) {
        int shown = repetitionsShown(r);
        int done = shown;
        for (ValidityCheck c : r.validity()) {
            Matcher reps = ValueChecks.REPETITIONS_DETAIL.matcher(c.detail() == null ? "" : c.detail());
            if (done == 0 && c.name().equals(ValueChecks.MIN_REPETITIONS) && reps.matches()) {
                done = Integer.parseInt(reps.group(1));
            }
        }
        for (int j = 0; j < r.validity().size(); j++) {
            ValidityCheck c = r.validity().get(j);
            if (c.passed()) {
                checkCheck(
                        c, metrics, shown, Math.max(done, 1), r.durationSeconds(), "payload.validity[" + j + "]", out);
            }
        }
        if (!r.metrics().isEmpty() && r.validity().stream().allMatch(ValidityCheck::passed)) {
            List<String> missing = ValueChecks.REQUIRED.stream()
                    .filter(n -> r.validity().stream().noneMatch(c -> c.name().equals(n)))
                    .toList();
            if (!missing.isEmpty()) {
                out.add(new Violation(
                        "payload.validity",
                        "a run whose checks all pass must carry the checks the server" + " re-evaluates; missing: "
                                + String.join(", ", missing)));
            }
            int repetitions = Math.max(done, 1);
            if (r.validity().stream().noneMatch(c -> c.name().equals(ValueChecks.MIN_DURATION))
                    && !fits(repetitions, ValueChecks.MIN_REPETITION_SECONDS, r.durationSeconds())) {
                out.add(new Violation(
                        "payload.duration_seconds",
                        String.format(
                                Locale.ROOT,
                                "a run whose checks all pass"
                                        + " must hold %d repetitions of %.0f s or more, which %s s cannot",
                                repetitions,
                                ValueChecks.MIN_REPETITION_SECONDS,
                                r.durationSeconds())));
            }
        }
    }

    private static void checkCheck(
            ValidityCheck c,
            Map<String, Metric> metrics,
            int shown,
            int done,
            double duration,
            String path,
            List<Violation> out) {
        String detail = c.detail() == null ? "" : c.detail();
        String cannot = c.name() + " cannot pass: ";
        Matcher cvName = ValueChecks.CV_NAME.matcher(c.name());
        if (cvName.matches()) {
            checkCv(c, Integer.parseInt(cvName.group(1)), detail, metrics, path, cannot, out);
            return;
        }
        switch (c.name()) {
            case ValueChecks.POSITIVE_FINITE -> checkPositive(c, detail, metrics, path, cannot, out);
            case ValueChecks.MIN_REPETITIONS -> checkRepetitions(c, detail, shown, path, cannot, out);
            case ValueChecks.MIN_DURATION -> checkDuration(c, detail, done, duration, path, cannot, out);
            default -> {
                // not a check of values only
            }
        }
    }

    private static void checkCv(
            ValidityCheck c,
            int percent,
            String detail,
            Map<String, Metric> metrics,
            String path,
            String cannot,
            List<Violation> out) {
        Matcher cv = ValueChecks.CV_DETAIL.matcher(detail);
        Metric m = cv.matches() ? metrics.get(cv.group(1)) : null;
        if (m == null) {
            out.add(unreadable(path, c, "the cv of a metric of this record"));
        } else if (m.values() != null && m.values().size() >= 2) {
            double own = Statistics.of(m.values()).cv();
            if (own > percent / 100.0 * (1 + ROUNDING)) {
                out.add(new Violation(
                        path + ".passed",
                        String.format(Locale.ROOT, "%sthe cv of %s's values is %.2f%%", cannot, m.name(), own * 100)));
            }
        }
    }

    private static void checkPositive(
            ValidityCheck c,
            String detail,
            Map<String, Metric> metrics,
            String path,
            String cannot,
            List<Violation> out) {
        Matcher positive = ValueChecks.POSITIVE_DETAIL.matcher(detail);
        Metric m = positive.matches() ? metrics.get(positive.group(1)) : null;
        if (m == null) {
            out.add(unreadable(path, c, "which metric of this record has positive and finite values"));
        } else if (m.values() != null && !m.values().stream().allMatch(v -> v > 0 && Double.isFinite(v))) {
            out.add(new Violation(path + ".passed", cannot + m.name() + " has values that are not positive"));
        }
    }

    private static void checkRepetitions(
            ValidityCheck c, String detail, int shown, String path, String cannot, List<Violation> out) {
        Matcher reps = ValueChecks.REPETITIONS_DETAIL.matcher(detail);
        if (!reps.matches()) {
            out.add(unreadable(path, c, "how many repetitions of how many ran"));
        } else if (shown > 0 && Integer.parseInt(reps.group(1)) != shown) {
            out.add(new Violation(
                    path + ".passed",
                    cannot + "it claims " + reps.group(1) + " repetitions where the metrics have " + shown
                            + " values each"));
        } else if (!ValueChecks.enoughRepetitions(Integer.parseInt(reps.group(1)), Integer.parseInt(reps.group(2)))) {
            out.add(new Violation(path + ".passed", cannot + "with " + detail));
        }
    }

    private static void checkDuration(
            ValidityCheck c,
            String detail,
            int done,
            double duration,
            String path,
            String cannot,
            List<Violation> out) {
        Matcher shortest = ValueChecks.DURATION_DETAIL.matcher(detail);
        if (!shortest.matches()) {
            out.add(unreadable(path, c, "how long the shortest repetition ran"));
            return;
        }
        double seconds = Double.parseDouble(shortest.group(1));
        if (seconds < ValueChecks.MIN_REPETITION_SECONDS) {
            out.add(new Violation(
                    path + ".passed",
                    String.format(
                            Locale.ROOT,
                            "%sits shortest repetition ran" + " %s s, under %.0f s",
                            cannot,
                            shortest.group(1),
                            ValueChecks.MIN_REPETITION_SECONDS)));
        } else if (!fits(done, seconds - ValueChecks.DURATION_ROUNDING, duration)) {
            out.add(new Violation(
                    path + ".passed",
                    String.format(
                            Locale.ROOT,
                            "%s%d repetitions of %s s or more" + " do not fit in the run's duration of %s s",
                            cannot,
                            done,
                            shortest.group(1),
                            duration)));
        }
    }

    /** Whether {@code repetitions} of at least {@code seconds} each fit in a run's {@code duration}. */
    private static boolean fits(int repetitions, double seconds, double duration) {
        return repetitions * seconds <= duration * (1 + ROUNDING);
    }

    private static Violation unreadable(String path, ValidityCheck c, String what) {
        return new Violation(
                path + ".detail",
                c.name() + " passes, but its detail does not say " + what + ", so the"
                        + " server cannot re-evaluate it");
    }

    /** How many values each metric has, the repetitions its values show; 0 when no metric has values. */
    private static int repetitionsShown(RunCompleted r) {
        return r.metrics().stream()
                .filter(m -> m.values() != null)
                .mapToInt(m -> m.values().size())
                .max()
                .orElse(0);
    }
}
