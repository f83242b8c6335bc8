package dev.podium.query.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.query.stats.LogDifference;
import dev.podium.query.stats.LogSample;
import dev.podium.query.stats.RatioEstimator;
import org.junit.jupiter.api.Test;

/** A reproduced claim holds on equivalence to the claim, fails when its interval excludes it, and is otherwise open. */
class ClaimBandTest {

    private static final double FIVE_PERCENT = Math.log1p(0.05);

    @Test
    void threeNoisyRunsAroundTheClaimAreInconclusiveAndSayHowManyMoreRunsAreNeeded() {
        // 170 ± 30% against 100 ± 30%: the 95% interval holds 1.72 and nearly everything else near it.
        ClaimBand.Check c = new ClaimBand(1.72, 1.72, FIVE_PERCENT).check(rows(170, 51, 100, 30));

        assertThat(c.holds()).isNull();
        assertThat(c.moreRuns()).isGreaterThan(0);
        assertThat(c.runsPerSide()).isEqualTo(3 + c.moreRuns());
    }

    @Test
    void preciseRunsEquivalentToTheClaimHold() {
        ClaimBand.Check c = new ClaimBand(1.72, 1.72, FIVE_PERCENT).check(rows(170, 2, 100, 1));

        assertThat(c.holds()).isTrue();
        assertThat(c.moreRuns()).isZero();
    }

    @Test
    void preciseRunsWhoseIntervalExcludesTheClaimDoNotHold() {
        assertThat(new ClaimBand(2.23, 2.23, FIVE_PERCENT)
                        .check(rows(170, 2, 100, 1))
                        .holds())
                .isFalse();
    }

    @Test
    void aRangeHoldsWhenTheRatioIsEquivalentToSomeValueWithinIt() {
        assertThat(new ClaimBand(1.5, 1.8, FIVE_PERCENT)
                        .check(rows(170, 2, 100, 1))
                        .holds())
                .isTrue();
        assertThat(new ClaimBand(3, 12, FIVE_PERCENT)
                        .check(rows(170, 2, 100, 1))
                        .holds())
                .isFalse();
    }

    @Test
    void theToleranceReadsAsAPercentage() {
        assertThat(new ClaimBand(1.72, 1.72, FIVE_PERCENT).toleranceText()).isEqualTo("\u00b15%");
        assertThat(new ClaimBand(3, 3, Math.log1p(0.5)).toleranceText()).isEqualTo("\u00b150%");
    }

    /** Two leaderboard rows of three runs: means and half-widths of their 95% intervals. */
    private static LogDifference rows(double mean, double half, double baseline, double baselineHalf) {
        return RatioEstimator.difference(
                        LogSample.ofRow(mean, 3, mean - half, mean + half),
                        LogSample.ofRow(baseline, 3, baseline - baselineHalf, baseline + baselineHalf),
                        false)
                .orElseThrow();
    }
}
