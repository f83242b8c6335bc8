package dev.podium.events.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Expected figures computed outside the project with Python 3.11.7's {@code statistics.median}: for values {@code v},
 * {@code m = median(v)}, {@code mad = median([abs(x - m) for x in v])}, {@code z = 0.6745 * (x - m) / mad}; the MeanAD
 * fallback as {@code (x - m) / (1.253314 * mean([abs(x - m) for x in v]))}.
 */
class RobustZTest {

    @Test
    void scoresAgainstMedianAndMadComputedOutside() {
        double[] v = {1510.0, 1498.5, 1502.25, 1495.0, 1505.75, 1499.0, 1188.0};

        RobustZ d = RobustZ.of(v).orElseThrow();

        assertThat(d.n()).isEqualTo(7);
        assertThat(d.median()).isEqualTo(1499.0);
        assertThat(d.mad()).isEqualTo(4.0);
        assertThat(d.z(1510.0)).isCloseTo(1.854875, within(1e-9));
        assertThat(d.z(1495.0)).isCloseTo(-0.6745, within(1e-9));
        assertThat(d.z(1188.0)).isCloseTo(-52.442375, within(1e-9));
        assertThat(d.flags(1188.0)).isTrue();
        assertThat(d.flags(1510.0)).isFalse();
    }

    @Test
    void evenCountTakesTheMeanOfTheMiddleTwo() {
        RobustZ d = RobustZ.of(new double[] {10, 11, 12, 14, 15, 40}).orElseThrow();

        assertThat(d.median()).isEqualTo(13.0);
        assertThat(d.mad()).isEqualTo(2.0);
        assertThat(d.z(40)).isCloseTo(9.10575, within(1e-9));
        assertThat(d.z(10)).isCloseTo(-1.01175, within(1e-9));
    }

    @Test
    void zeroMadFallsBackToMeanAbsoluteDeviation() {
        RobustZ d = RobustZ.of(new double[] {100, 100, 100, 100, 130}).orElseThrow();

        assertThat(d.mad()).isZero();
        assertThat(d.meanAbsoluteDeviation()).isEqualTo(6.0);
        assertThat(d.z(130)).isCloseTo(3.989423241103187, within(1e-9));
        assertThat(d.flags(130)).isTrue();
        assertThat(d.z(100)).isZero();
    }

    @Test
    void oneAbsurdValueDoesNotMoveTheHonestOnes() {
        RobustZ d = RobustZ.of(new double[] {10, 12, 11, 13, 1e12}).orElseThrow();

        assertThat(d.median()).isEqualTo(12.0);
        assertThat(d.mad()).isEqualTo(1.0);
        assertThat(d.flags(10)).isFalse();
        assertThat(d.flags(13)).isFalse();
        assertThat(d.flags(1e12)).isTrue();
    }

    @Test
    void equalValuesFlagNothingAndTooFewGiveNoDistribution() {
        assertThat(RobustZ.of(new double[] {5, 5, 5}).orElseThrow().flags(5)).isFalse();
        assertThat(RobustZ.of(new double[] {1, 2})).isEmpty();
        assertThat(RobustZ.of(new double[] {1, 2, Double.NaN})).isEmpty();
    }
}
