package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A history's versions take their interval sides from the log sums ingest keeps per run (proj_cell_run): the same
 * interval as Welch's t on the values themselves, pooled repetitions below three runs and run means from three.
 */
class HistoryVersionsTest {

    private static final double[][] OLD_TWO_RUNS = {{100.0, 101.5, 99.2}, {98.7, 100.4}};
    private static final double[][] NEW_TWO_RUNS = {{91.0, 90.2, 92.4}, {89.9, 90.8, 91.1}};
    private static final double[][] OLD_FOUR_RUNS = {{100.0, 101.5}, {98.7, 100.4}, {103.1, 102.2}, {97.5, 99.0}};
    private static final double[][] NEW_THREE_RUNS = {{91.0, 90.2}, {89.9, 90.8}, {93.0, 92.1, 94.4}};

    @Test
    void belowThreeRunsAVersionCountsEachRepetition() {
        RatioInterval shown = vsPrevious(OLD_TWO_RUNS, NEW_TWO_RUNS, false);

        RatioInterval pooled = RatioEstimator.welchLog(pooled(NEW_TWO_RUNS), pooled(OLD_TWO_RUNS));
        assertSame(shown, pooled);
        assertThat(shown.n()).isEqualTo(6);
        assertThat(shown.baselineN()).isEqualTo(5);
    }

    @Test
    void fromThreeRunsAVersionCountsEachRunOnceByItsMean() {
        RatioInterval shown = vsPrevious(OLD_FOUR_RUNS, NEW_THREE_RUNS, false);

        RatioInterval byRun = RatioEstimator.welchLog(means(NEW_THREE_RUNS), means(OLD_FOUR_RUNS));
        assertSame(shown, byRun);
        assertThat(shown.n()).isEqualTo(3);
        assertThat(shown.baselineN()).isEqualTo(4);
    }

    @Test
    void lowerIsBetterInvertsTheRatio() {
        RatioInterval higher = vsPrevious(OLD_FOUR_RUNS, NEW_THREE_RUNS, false);
        RatioInterval lower = vsPrevious(OLD_FOUR_RUNS, NEW_THREE_RUNS, true);

        assertThat(lower.ratio()).isCloseTo(1 / higher.ratio(), within(1e-12));
        assertThat(lower.low()).isCloseTo(1 / higher.high(), within(1e-12));
    }

    private static RatioInterval vsPrevious(double[][] before, double[][] after, boolean lowerIsBetter) {
        List<HistoryQueries.HistoryRow> rows = new ArrayList<>();
        for (double[] run : before) {
            rows.add(row(rows.size(), "2.4.0", run));
        }
        for (double[] run : after) {
            rows.add(row(rows.size(), "2.5.1", run));
        }
        List<HistoryView.Version> versions = HistoryService.versions(rows, lowerIsBetter);
        assertThat(versions).extracting(HistoryView.Version::version).containsExactly("2.4.0", "2.5.1");
        assertThat(versions.get(0).vsPrevious()).isNull();
        return versions.get(1).vsPrevious();
    }

    /** A run as proj_cell_run keeps it: logs as the exact decimals of the doubles PostgreSQL's ln gives. */
    private static HistoryQueries.HistoryRow row(int i, String version, double[] values) {
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal squares = BigDecimal.ZERO;
        for (double v : values) {
            BigDecimal log = new BigDecimal(Double.toString(Math.log(v)));
            sum = sum.add(log);
            squares = squares.add(log.multiply(log));
        }
        double mean = Arrays.stream(values).average().orElseThrow();
        return new HistoryQueries.HistoryRow(
                "key",
                "samples_per_second",
                "nvidia-h200",
                "bench",
                "samples/s",
                "HIGHER_IS_BETTER",
                UUID.nameUUIDFromBytes(new byte[] {(byte) i}),
                Instant.EPOCH.plusSeconds(86_400L * i),
                mean,
                values.length,
                version,
                values.length,
                sum,
                squares,
                new BigDecimal(Double.toString(Math.log(mean))));
    }

    private static double[] pooled(double[][] runs) {
        return Arrays.stream(runs).flatMapToDouble(Arrays::stream).toArray();
    }

    private static double[] means(double[][] runs) {
        return Arrays.stream(runs)
                .mapToDouble(r -> Arrays.stream(r).average().orElseThrow())
                .toArray();
    }

    private static void assertSame(RatioInterval shown, RatioInterval expected) {
        assertThat(shown.method()).isEqualTo(RatioInterval.WELCH_LOG);
        assertThat(shown.ratio()).isCloseTo(expected.ratio(), within(1e-12));
        assertThat(shown.low()).isCloseTo(expected.low(), within(1e-12));
        assertThat(shown.high()).isCloseTo(expected.high(), within(1e-12));
    }
}
