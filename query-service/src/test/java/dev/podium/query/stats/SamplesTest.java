package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SamplesTest {

    @Test
    void oneOrTwoRunsGiveTheirRepetitions() {
        assertThat(Samples.of(List.of(new double[] {1, 2, 3}), Arrays.asList(2.0)))
                .containsExactly(1, 2, 3);
        assertThat(Samples.of(List.of(new double[] {1, 2}, new double[] {5}), Arrays.asList(1.5, 5.0)))
                .containsExactly(1, 2, 5);
    }

    @Test
    void threeRunsOrMoreCountOnceEachByTheirMean() {
        assertThat(Samples.of(
                        List.of(new double[] {1, 3}, new double[] {10, 20, 30}, new double[0]),
                        Arrays.asList(2.0, 20.0, 7.0)))
                .containsExactly(2, 20, 7);
        assertThat(Samples.of(List.of(new double[0], new double[0], new double[0]), Arrays.asList(1.0, null, 3.0)))
                .containsExactly(1, 3);
    }

    /**
     * Why: three runs whose levels differ by more than their repetition noise. Pooled repetitions would claim a tight
     * interval; run means give an honest, wider one.
     */
    @Test
    void runMeansWidenTheIntervalWhenRunsDisagree() {
        List<double[]> a = List.of(
                new double[] {100, 100.2, 99.8}, new double[] {110, 110.2, 109.8}, new double[] {90, 90.2, 89.8});
        List<double[]> b = List.of(
                new double[] {100, 100.1, 99.9}, new double[] {101, 101.1, 100.9}, new double[] {99, 99.1, 98.9});
        double[] pooledA = a.stream().flatMapToDouble(Arrays::stream).toArray();
        double[] pooledB = b.stream().flatMapToDouble(Arrays::stream).toArray();
        RatioInterval pooled = RatioEstimator.welchLog(pooledA, pooledB);
        RatioInterval byRun = RatioEstimator.welchLog(
                Samples.of(a, Arrays.asList(null, null, null)), Samples.of(b, Arrays.asList(null, null, null)));

        assertThat(byRun.high() - byRun.low()).isGreaterThan(2 * (pooled.high() - pooled.low()));
    }
}
