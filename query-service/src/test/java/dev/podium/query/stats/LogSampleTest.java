package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A side of a ratio interval from the exact sums ingest keeps: as the exact decimal computation, to 1e-14. */
class LogSampleTest {

    @Test
    void meanAndVarianceFromSumsAreTheExactOnesWithinAFewUnitsInTheLastPlace() {
        Random random = new Random(3);
        for (int round = 0; round < 2000; round++) {
            int n = 2 + random.nextInt(400);
            double level = Math.log(Math.pow(10, random.nextInt(12) - 3));
            double spread = Math.pow(10, -1 - random.nextInt(9));
            BigDecimal sum = BigDecimal.ZERO;
            BigDecimal squares = BigDecimal.ZERO;
            for (int i = 0; i < n; i++) {
                BigDecimal x = new BigDecimal(Double.toString(level + spread * random.nextGaussian()));
                sum = sum.add(x);
                squares = squares.add(x.multiply(x));
            }
            LogSample s = LogSample.ofSums(n, sum, squares);
            double exactMean =
                    sum.divide(BigDecimal.valueOf(n), MathContext.DECIMAL128).doubleValue();
            double exactVariance = BigDecimal.valueOf(n)
                    .multiply(squares)
                    .subtract(sum.multiply(sum))
                    .divide(BigDecimal.valueOf((long) n * (n - 1)), MathContext.DECIMAL128)
                    .doubleValue();
            assertThat(s.n()).isEqualTo(n);
            assertThat(s.mean()).isCloseTo(exactMean, within(1e-14 * Math.max(1, Math.abs(exactMean))));
            assertThat(s.variance()).isCloseTo(exactVariance, within(1e-14 * exactVariance));
        }
    }

    @Test
    void aTinySpreadOnALargeLevelKeepsItsVarianceWhereDoublesWouldCancel() {
        BigDecimal a = new BigDecimal("20.000000001");
        BigDecimal b = new BigDecimal("20.000000003");
        LogSample s = LogSample.ofSums(2, a.add(b), a.multiply(a).add(b.multiply(b)));
        assertThat(s.variance()).isCloseTo(2e-18, within(1e-30));
    }

    @Test
    void oneValueHasAMeanAndNoVarianceAndNoneHasNeither() {
        assertThat(LogSample.ofSums(1, new BigDecimal("2.5"), new BigDecimal("6.25")))
                .satisfies(s -> assertThat(s.mean()).isEqualTo(2.5))
                .satisfies(s -> assertThat(s.variance()).isNaN());
        assertThat(LogSample.ofSums(0, BigDecimal.ZERO, BigDecimal.ZERO).mean()).isNaN();
    }

    @Test
    void decimalsOfEveryScaleConvert() {
        assertThat(LogSample.toDouble(new BigDecimal("123456789012345678901234567890.5")))
                .isEqualTo(1.2345678901234568e29);
        assertThat(LogSample.toDouble(new BigDecimal("1E+5"))).isEqualTo(1e5);
        assertThat(LogSample.toDouble(new BigDecimal("0.000000000000000000000000000000000000001234")))
                .isCloseTo(1.234e-39, within(1e-53));
        assertThat(LogSample.toDouble(new BigDecimal("1e-400"))).isEqualTo(0.0);
    }
}
