package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.util.ArrayList;
import java.util.List;

/**
 * Adaptive runs of a campaign that measures one ratio (two sides: two pools, or two points of its matrix): after each
 * side has {@value #MIN_RUNS} runs (a side's interval uses run means from three runs on), the command side requests one
 * more run at a time for the side whose variance dominates, until the ratio's 95% interval is at most
 * {@code targetHalfWidthPct} percent either side or each side has run {@code max} jobs. {@code metric} names the metric
 * the ratio is taken on; absent, the command side takes the shipped workload's throughput. How it stops is
 * {@link AdaptiveStop}.
 */
public record Adaptive(
        @NonNegative int max,
        @NonNegative double targetHalfWidthPct,
        @Nullable String metric) {

    /** Runs each side has before the ratio's interval is looked at. */
    public static final int MIN_RUNS = 3;
    /** Most runs one side of one campaign may request: the bound on what a spec (or lying runs) can make a fleet do. */
    public static final int MAX_RUNS = 50;

    public static final double MIN_TARGET_PCT = 0.1;
    public static final double MAX_TARGET_PCT = 50;

    /** Every rule this adaptive block breaks, each a sentence about its field ({@code max}, {@code target...}). */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (max < MIN_RUNS || max > MAX_RUNS) {
            out.add("max must be between " + MIN_RUNS + " and " + MAX_RUNS + " runs a side, was " + max);
        }
        if (!(targetHalfWidthPct >= MIN_TARGET_PCT && targetHalfWidthPct <= MAX_TARGET_PCT)) {
            out.add("target_half_width_pct must be between " + MIN_TARGET_PCT + " and " + MAX_TARGET_PCT + ", was "
                    + targetHalfWidthPct);
        }
        return out;
    }
}
