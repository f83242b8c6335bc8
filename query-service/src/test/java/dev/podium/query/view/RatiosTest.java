package dev.podium.query.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RatiosTest {

    private static String decimal(double numerator, double denominator) {
        return BigDecimal.valueOf(numerator)
                .divide(BigDecimal.valueOf(denominator), MathContext.DECIMAL64)
                .setScale(2, RoundingMode.HALF_UP)
                .toPlainString();
    }

    @Test
    void tiesRoundHalfUpLikeTheDecimalDivision() {
        assertThat(Ratios.twoDecimals(1.005, 1)).isEqualTo("1.01");
        assertThat(Ratios.twoDecimals(2.675, 1)).isEqualTo("2.68");
        assertThat(Ratios.twoDecimals(1, 8)).isEqualTo("0.13");
        assertThat(Ratios.twoDecimals(-1, 8)).isEqualTo("-0.13");
        assertThat(Ratios.twoDecimals(601.5, 227.5)).isEqualTo("2.64");
        assertThat(Ratios.twoDecimals(227.5, 227.5)).isEqualTo("1.00");
        assertThat(Ratios.twoDecimals(-0.001, 1)).isEqualTo("0.00");
        assertThat(Ratios.twoDecimals(1e15, 3)).isEqualTo(decimal(1e15, 3));
    }

    @Test
    void agreesWithTheDecimalDivisionOnManyValues() {
        Random random = new Random(42);
        for (int i = 0; i < 200_000; i++) {
            double a = Math.round(random.nextDouble() * 1e6 * (random.nextBoolean() ? 1 : 1e-3)) / 10.0;
            double b = Math.round(random.nextDouble() * 1e6 * (random.nextBoolean() ? 1 : 1e-3)) / 10.0 + 0.1;
            if (random.nextInt(10) == 0) {
                a = -a;
            }
            assertThat(Ratios.twoDecimals(a, b)).as(a + " / " + b).isEqualTo(decimal(a, b));
        }
    }
}
