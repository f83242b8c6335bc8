package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reference values from scipy.stats.t (scipy 1.17): t.ppf(0.975, df) and t.cdf(1.5, df). */
class TDistributionTest {

    @ParameterizedTest
    @CsvSource({
        "1, 12.706204736174694, 0.8128329581890011",
        "2, 4.302652729749462, 0.8638034375544994",
        "3.7, 2.8675207071911895, 0.8932009153989933",
        "10, 2.228138851986274, 0.9177463367772799",
        "17.35, 2.1065780861741037, 0.9242041417319073",
        "120, 1.9799304050824402, 0.9318795823846401"})
    void quantilesAndCdfMatchScipy(double df, double q975, double cdfAt15) {
        assertThat(TDistribution.quantile(0.975, df)).isCloseTo(q975, within(1e-8));
        assertThat(TDistribution.cdf(1.5, df)).isCloseTo(cdfAt15, within(1e-10));
        assertThat(TDistribution.quantile(0.025, df)).isCloseTo(-q975, within(1e-8));
    }

    @Test
    void agreesWithTheTableInEventsForWholeDegreesOfFreedom() {
        for (int df = 1; df <= 30; df++) {
            assertThat(TDistribution.quantile(0.975, df)).isCloseTo(dev.podium.events.model.StudentT.quantile975(df), within(6e-4));
        }
    }

    @Test
    void theTabulated975QuantileMatchesTheExactOneAtAnyDegreesOfFreedom() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(975);
        double worst = 0;
        for (int i = 0; i < 5000; i++) {
            // Welch's df lie anywhere from 1 up; spread the draws over five orders of magnitude, ends included.
            double df = i == 0 ? 1 : i == 1 ? 1e5 : Math.exp(random.nextDouble() * Math.log(1e5));
            double exact = TDistribution.quantile(0.975, df);
            worst = Math.max(worst, Math.abs(TDistribution.quantile975(df) - exact) / exact);
        }
        assertThat(worst).as("the exact quantile itself is good to about 1e-10").isLessThan(1e-10);
        assertThat(TDistribution.quantile975(1)).isCloseTo(12.706204736174707, within(1e-10));
        assertThat(TDistribution.quantile975(Double.POSITIVE_INFINITY)).isCloseTo(1.959963984540054, within(1e-12));
        // Beyond 1e5 the incomplete beta loses digits (3e-10 at 1e6): scipy's value, and the first terms of the
        // Cornish-Fisher expansion at 1e9, are the references there.
        assertThat(TDistribution.quantile975(1e6)).isCloseTo(1.959966356814107, within(1e-11));
        double z = 1.959963984540054;
        assertThat(TDistribution.quantile975(1e9)).isCloseTo(z + (z * z * z + z) / 4e9, within(1e-12));
        assertThat(TDistribution.quantile975(0.5)).as("below the table: exact").isEqualTo(TDistribution.quantile(0.975, 0.5));
    }

    @Test
    void rejectsImpossibleArguments() {
        assertThatThrownBy(() -> TDistribution.quantile(1.0, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TDistribution.quantile(0.9, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TDistribution.cdf(1, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
