package dev.podium.query.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LineChartsTest {

    @Test
    void aPointIsWrittenAsFormatWritesItToOneDecimal() {
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            double x = (random.nextDouble() - 0.5) * 2000;
            double y = (random.nextDouble() - 0.5) * 2000;
            StringBuilder sb = new StringBuilder();
            LineCharts.point(sb, x, y);
            assertThat(sb).hasToString(tenths(x) + "," + tenths(y));
        }
    }

    /** As {@code %.1f} writes them, but a value that rounds to zero is "0.0", never "-0.0". */
    @Test
    void pointsAreSeparatedAndEdgeValuesWrittenAsFormatWritesThem() {
        StringBuilder sb = new StringBuilder();
        for (double v : new double[] {0, -0.04, -0.06, 0.05, 99.95, 1e15, Double.NaN, Double.POSITIVE_INFINITY}) {
            LineCharts.point(sb, v, 1);
        }
        assertThat(sb.toString())
                .isEqualTo("0.0,1.0 0.0,1.0 -0.1,1.0 0.1,1.0 100.0,1.0 %s,1.0 NaN,1.0 Infinity,1.0"
                        .formatted(String.format(Locale.ROOT, "%.1f", 1e15)));
    }

    /** One decimal, half up on the double's exact value: away from a tie, what {@code %.1f} writes. */
    private static String tenths(double v) {
        String s = new BigDecimal(v).setScale(1, RoundingMode.HALF_UP).toPlainString();
        return s.equals("-0.0") ? "0.0" : s;
    }
}
