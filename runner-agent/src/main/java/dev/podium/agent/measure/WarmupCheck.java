package dev.podium.agent.measure;

import dev.podium.events.model.ValidityCheck;
import java.util.Locale;

/**
 * The {@value #NAME} check, which decides whether a run reaches the leaderboards: its detail starts with how the warm-up
 * was left out, "separated" (the reference workload reports its warm-up steps), "declared" (the job spec says the tool
 * does it) or "verified" (the agent computed the throughput from the tool's per-step log after the warm-up), so that the
 * run's JSON and page show which.
 */
public final class WarmupCheck {

    public static final String NAME = "warmup_excluded";

    private WarmupCheck() {}

    public static ValidityCheck separated() {
        return new ValidityCheck(NAME, true, "separated: measured after the warm-up steps");
    }

    public static ValidityCheck notSeparated() {
        return new ValidityCheck(
                NAME,
                false,
                "the workload does not report warm-up separately"
                        + " (a command job may declare 'warmup: excluded-by-tool' or ask for 'warmup: from-step-log')");
    }

    public static ValidityCheck declared() {
        return new ValidityCheck(
                NAME,
                true,
                "declared: the job spec says the tool leaves its warm-up out of its figures (warmup: excluded-by-tool)");
    }

    public static ValidityCheck verified(int skipped, long measuredSteps, int repetitions) {
        return new ValidityCheck(
                NAME,
                true,
                String.format(
                        Locale.ROOT,
                        "verified: the agent computed the throughput from the tool's per-step log after its first %d steps"
                                + " (%d measured steps in %d repetitions)",
                        skipped,
                        measuredSteps,
                        repetitions));
    }

    public static ValidityCheck notVerified(String why) {
        return new ValidityCheck(NAME, false, "verified: not possible, " + why);
    }
}
