package dev.podium.query.reproduce;

import dev.podium.query.data.AdaptiveProgress;
import dev.podium.query.stats.ConfigDifference;
import dev.podium.query.stats.Equivalence;
import java.util.List;

/**
 * A published claim's page: the claim, the plan that measures its ratio on a fleet (or why none can), the command that
 * starts it, and what each reproduction measured beside the published ratio. What /claims/{source}/{claim} shows and
 * /api/v1/claims/{source}/{claim} returns. {@code accelerators}: the claim's number of accelerators (its key's total, else
 * its device count; null when it states none).
 */
public record ReproductionView(
        String source,
        String claimId,
        String quote,
        String subject,
        String baseline,
        String claimed,
        List<Stated> stated,
        Plan plan,
        String reason,
        String command,
        Integer accelerators,
        List<Reproduced> reproductions) {

    /** A configuration setting the claim states (its key's dimensions), to read beside what the two sides ran. */
    public record Stated(String setting, String value) {}

    /** What a campaign varies, from which value to which, with which shipped workload and metric. */
    public record Plan(String dimension, String from, String to, String workload, String metric, boolean crossDevice) {}

    /**
     * One campaign made for the claim, and its measured ratios (one per device, or one across the two pools);
     * {@code stale}: the pools where a later run reported another framework, driver or runtime, and {@code rerun} the
     * command that makes the reproduction again on the same pools; {@code adaptive} where it stands when it asks for
     * one more run at a time (null when it is not adaptive); {@code devices} the accelerators a run it was measured at
     * when not the claim's own number (null: the claim's).
     */
    public record Reproduced(
            String campaignId,
            List<String> pools,
            Integer devices,
            String createdAt,
            List<Ratio> ratios,
            List<Stale> stale,
            String rerun,
            Adaptive adaptive) {}

    /** An adaptive reproduction: where it stands, and each of its two sides. */
    public record Adaptive(AdaptiveProgress progress, List<AdaptiveSide> sides) {}

    /** One side of an adaptive reproduction, {@code where} its pool and value of the parameter varied. */
    public record AdaptiveSide(String where, int runs, int jobs) {}

    /**
     * A pool where the reproduction went stale: {@code component} (framework, driver or runtime) went from {@code from}
     * to {@code to} in a run started at {@code since}; {@code text} says so in one line.
     */
    public record Stale(String pool, String component, String from, String to, String since, String text) {}

    /**
     * A measured ratio beside the published one, with its Welch 95% interval (null while it cannot be computed).
     * {@code holds}: equivalent to the claim within {@code tolerance} (true), its interval excludes the claim (false), or
     * null: inconclusive ({@code moreRuns} more runs a side needed), no interval, or not comparable, and {@code
     * notComparable} then says what differs (null when they are). {@code equivalence} is the ratio's verdict against 1 at
     * the page's margin, {@code runsPerSide} the runs a side a campaign needs to settle the claim at 80% power, and
     * {@code differences} the configuration settings in which the two sides' counted runs differ.
     */
    public record Ratio(
            String where,
            double comparedMean,
            double baselineMean,
            int comparedRuns,
            int baselineRuns,
            double ratio,
            Double low,
            Double high,
            Boolean holds,
            String notComparable,
            Equivalence equivalence,
            String tolerance,
            Integer runsPerSide,
            Integer moreRuns,
            List<ConfigDifference> differences) {}
}
