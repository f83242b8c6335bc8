package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class EfficiencyTest {

    @Test
    void rateUnitsNameWhatTheyCount() {
        assertThat(Efficiency.rateOf("samples/s")).isEqualTo("samples");
        assertThat(Efficiency.rateOf("tokens/sec")).isEqualTo("tokens");
        assertThat(Efficiency.rateOf("images per second")).isEqualTo("images");
        assertThat(Efficiency.rateOf("s")).isNull();
        assertThat(Efficiency.rateOf("ms")).isNull();
        assertThat(Efficiency.rateOf(null)).isNull();
        assertThat(Efficiency.rateOf("<script>/s")).isNull();
    }

    @Test
    void samplesPerDollarAtAPricePerDeviceHour() {
        // 8 devices at 4 $/h cost 32 $/h; 1000 samples/s is 3.6 M samples/h: 112,500 samples per dollar.
        assertThat(Efficiency.perDollar(1000, 4.0, 8)).isCloseTo(112_500, within(1e-9));
        assertThat(Efficiency.perDollar(1000, 0, 8)).isNull();
        assertThat(Efficiency.perDollar(-1, 4, 8)).isNull();
    }

    @Test
    void scalingEfficiencyForRatesAndTimes() {
        assertThat(Efficiency.scaling(700, 8, 100, 1, false)).isCloseTo(0.875, within(1e-12));
        assertThat(Efficiency.scaling(200, 4, 120, 2, false)).isCloseTo(0.8333333333, within(1e-9));
        // a time: 100 s on 1, 16 s on 8 (ideal 12.5 s)
        assertThat(Efficiency.scaling(16, 8, 100, 1, true)).isCloseTo(0.78125, within(1e-12));
        assertThat(Efficiency.scaling(0, 8, 100, 1, false)).isNull();
    }
}
