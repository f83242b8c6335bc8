package dev.podium.query.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FormatsTest {

    @Test
    void fixedDecimalsAreWhatStringFormatGivesEvenAtTiesSignsAndExtremes() {
        double[] values = {
            0,
            -0.0,
            0.05,
            0.15,
            0.25,
            -0.04,
            -0.05,
            1.005,
            2.675,
            99.95,
            99.949999,
            100.05,
            1e7,
            123456789.25,
            1e13 + 0.25,
            -1e13,
            Double.MAX_VALUE,
            Double.MIN_VALUE,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY
        };
        for (double v : values) {
            assertThat(Formats.fixed(v, 1)).as("%.1f of " + v).isEqualTo(String.format(Locale.ROOT, "%.1f", v));
            assertThat(Formats.fixed(v, 2)).as("%.2f of " + v).isEqualTo(String.format(Locale.ROOT, "%.2f", v));
        }
    }

    @Test
    void fixedDecimalsAgreeWithStringFormatOnManyValues() {
        Random random = new Random(7);
        for (int i = 0; i < 300_000; i++) {
            double v = switch (i % 4) {
                case 0 -> random.nextDouble() * 2000;
                case 1 -> Math.round(random.nextDouble() * 1e6) / 1000.0;
                case 2 -> (random.nextDouble() - 0.5) * 1e9;
                default -> Math.round(random.nextDouble() * 1e5) / 200.0;
            };
            assertThat(Formats.fixed(v, 1)).as("%.1f of " + v).isEqualTo(String.format(Locale.ROOT, "%.1f", v));
            assertThat(Formats.fixed(v, 2)).as("%.2f of " + v).isEqualTo(String.format(Locale.ROOT, "%.2f", v));
        }
    }

    @Test
    void cellsShowOneTwoOrThreeSignificantDecimalsAndADashForNothing() {
        assertThat(Formats.num(601.5)).isEqualTo("601.5");
        assertThat(Formats.num(31.714)).isEqualTo("31.71");
        assertThat(Formats.num(0.012345)).isEqualTo("0.0123");
        assertThat(Formats.num(null)).isEqualTo("—");
        assertThat(Formats.num(Double.NaN)).isEqualTo("—");
        assertThat(Formats.pct(0.0123)).isEqualTo("1.2%");
        assertThat(Formats.pct(null)).isEqualTo("—");
        assertThat(Formats.ci(10.0, 16.5)).isEqualTo("± 3.25");
    }

    @Test
    void valuesTooLargeForTheirDigitsToFitACellGetAPowerOfTen() {
        assertThat(Formats.num(999_999_999_999.9)).isEqualTo("999999999999.9");
        assertThat(Formats.num(3.7e15)).isEqualTo("3.70e+15");
        assertThat(Formats.num(9.05e149)).isEqualTo("9.05e+149");
        assertThat(Formats.num(-9.05e149)).isEqualTo("-9.05e+149");
        assertThat(Formats.num(1e-300)).isEqualTo("1.00e-300");
        assertThat(Formats.scientific(new java.math.BigDecimal("8.96039603960396E+449")))
                .isEqualTo("8.96e+449");
    }

    @Test
    void aRateCountsOneSampleOneQueryOneToken() {
        assertThat(Formats.singular("samples")).isEqualTo("sample");
        assertThat(Formats.singular("queries")).isEqualTo("query");
        assertThat(Formats.singular("tokens")).isEqualTo("token");
        assertThat(Formats.singular("images")).isEqualTo("image");
        assertThat(Formats.singular("pass")).isEqualTo("pass");
        assertThat(Formats.singular("s")).isEqualTo("s");
        assertThat(Formats.singular(null)).isNull();
    }
}
