package dev.podium.events.validate;

import dev.podium.events.model.Metric;
import dev.podium.events.model.ValidityCheck;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The validity checks that depend on a run's own figures only: how many repetitions ran, their cv, positive and finite
 * values, and how long the shortest repetition took. The agent writes them with these methods, and the server reads
 * their details back to re-evaluate them ({@link ServerStatistics}), so their names, the platform's limits and the
 * wording of their details are the contract's and live here once.
 */
public final class ValueChecks {

    public static final String MIN_REPETITIONS = "min_repetitions";
    public static final String POSITIVE_FINITE = "positive_finite";
    public static final String MIN_DURATION = "min_duration";
    /** A coefficient of variation above this marks the run as noisy (it still counts, with the check failed). */
    public static final double MAX_CV = 0.10;

    public static final String CV = "cv_below_" + Math.round(MAX_CV * 100) + "pct";
    /** Repetitions a confidence interval wants; a job that asked for fewer passes with all of them. */
    public static final int REPETITIONS_FOR_INTERVAL = 3;
    /** A repetition shorter than this (wall time of the workload) is dominated by start-up and timer noise. */
    public static final double MIN_REPETITION_SECONDS = 2.0;
    /**
     * The checks a run whose checks all pass must carry, since every agent version has written them; {@value
     * #MIN_DURATION} came later, so a run without it is judged by its duration instead.
     */
    static final List<String> REQUIRED = List.of(MIN_REPETITIONS, CV, POSITIVE_FINITE);

    static final Pattern CV_NAME = Pattern.compile("cv_below_(\\d{1,3})pct");
    static final Pattern CV_DETAIL = Pattern.compile("cv of (.+) = .*");
    static final Pattern POSITIVE_DETAIL = Pattern.compile("(.+) values are positive and finite");
    static final Pattern REPETITIONS_DETAIL = Pattern.compile("(\\d{1,9}) of (\\d{1,9})(?: repetitions.*)?");
    static final Pattern DURATION_DETAIL = Pattern.compile("shortest repetition (\\d{1,9}(?:\\.\\d{1,9})?) s.*");
    /** The shortest repetition's seconds are written with two decimals. */
    static final double DURATION_ROUNDING = 0.005;

    private ValueChecks() {}

    /** {@value #MIN_REPETITIONS}: at least {@link #REPETITIONS_FOR_INTERVAL} ran, or all of fewer that were asked for. */
    public static ValidityCheck repetitions(int done, int wanted) {
        return new ValidityCheck(
                MIN_REPETITIONS,
                enoughRepetitions(done, wanted),
                done + " of " + wanted + " repetitions (" + REPETITIONS_FOR_INTERVAL
                        + " or more wanted for a confidence interval)");
    }

    /** The cv check of a run's primary metric: at most {@link #MAX_CV}, or fewer than two values. */
    public static ValidityCheck cv(Metric primary) {
        double cv = primary.statistics().cv();
        return new ValidityCheck(
                CV,
                primary.values().size() < 2 || cv <= MAX_CV,
                String.format(Locale.ROOT, "cv of %s = %.2f%%", primary.name(), cv * 100));
    }

    /** {@value #POSITIVE_FINITE}: every value of the primary metric is above zero and finite. */
    public static ValidityCheck positiveFinite(Metric primary) {
        return new ValidityCheck(
                POSITIVE_FINITE,
                primary.values().stream().allMatch(v -> v > 0 && Double.isFinite(v)),
                primary.name() + " values are positive and finite");
    }

    /** {@value #MIN_DURATION}: every repetition ran at least {@link #MIN_REPETITION_SECONDS}. */
    public static ValidityCheck duration(List<Double> repetitionSeconds) {
        double shortest = repetitionSeconds.stream()
                .mapToDouble(Double::doubleValue)
                .min()
                .orElse(0);
        return new ValidityCheck(
                MIN_DURATION,
                !repetitionSeconds.isEmpty() && shortest >= MIN_REPETITION_SECONDS,
                String.format(
                        Locale.ROOT,
                        "shortest repetition %.2f s (%.0f s or more wanted)",
                        shortest,
                        MIN_REPETITION_SECONDS));
    }

    static boolean enoughRepetitions(int done, int wanted) {
        return done > 0 && done >= Math.min(wanted, REPETITIONS_FOR_INTERVAL);
    }
}
