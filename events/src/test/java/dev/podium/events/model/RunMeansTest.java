package dev.podium.events.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RunMeansTest {

    @Test
    void batchesInAnyOrderGiveTheFiguresOfAllRunsAtOnce() {
        Random random = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            List<Double> means = new ArrayList<>();
            int runs = 1 + random.nextInt(60);
            for (int i = 0; i < runs; i++) {
                // wide magnitudes, where floating-point sums would depend on the order
                means.add(Math.pow(10, random.nextInt(12) - 3) * (1 + random.nextDouble()));
            }
            RunMeans all = RunMeans.of(means);
            Collections.shuffle(means, random);
            RunMeans merged = RunMeans.NONE;
            int from = 0;
            while (from < means.size()) {
                int to = Math.min(means.size(), from + 1 + random.nextInt(7));
                merged = merged.plus(RunMeans.of(means.subList(from, to)));
                from = to;
            }
            assertThat(merged).isEqualTo(all);
            assertThat(merged.mean()).isEqualTo(all.mean());
            assertThat(merged.stdev()).isEqualTo(all.stdev());
            assertThat(merged.figures()).isEqualTo(all.figures());
        }
    }

    @Test
    void figuresAgreeWithStatisticsOfTheSameValues() {
        List<Double> means = List.of(601.5, 598.25, 607.0, 603.125, 599.875);
        Statistics s = Statistics.of(means);
        RunMeans r = RunMeans.of(means);
        assertThat(r.runs()).isEqualTo(5);
        assertThat(r.mean()).isCloseTo(s.mean(), within(1e-12));
        assertThat(r.stdev()).isCloseTo(s.stdev(), within(1e-12));
        assertThat(r.figures().ci95Low()).isCloseTo(s.ci95Low(), within(1e-12));
        assertThat(r.figures().ci95High()).isCloseTo(s.ci95High(), within(1e-12));
        assertThat(r.figures().cv()).isCloseTo(s.cv(), within(1e-15));
        assertThat(r.best(Direction.HIGHER_IS_BETTER)).isEqualTo(607.0);
        assertThat(r.best(Direction.LOWER_IS_BETTER)).isEqualTo(598.25);
    }

    @Test
    void identicalMeansHaveNoSpreadAtAll() {
        // 0.1 has no exact binary form; a floating-point variance of ten copies is a tiny non-zero number
        RunMeans r = RunMeans.of(Collections.nCopies(10, 0.1));
        assertThat(r.stdev()).isZero();
        assertThat(r.figures().ci95Low()).isEqualTo(r.figures().ci95High()).isEqualTo(0.1);
    }

    @Test
    void oneRunIsItsOwnIntervalAndNoneHasNoFigures() {
        RunMeans one = RunMeans.NONE.plus(42.5);
        assertThat(one.mean()).isEqualTo(42.5);
        assertThat(one.stdev()).isZero();
        assertThat(one.figures().ci95Low()).isEqualTo(42.5);
        assertThat(one.figures().ci95High()).isEqualTo(42.5);
        assertThat(one.figures().cv()).isZero();
        assertThatThrownBy(RunMeans.NONE::mean).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nonFiniteMeansAreRefused() {
        assertThatThrownBy(() -> RunMeans.NONE.plus(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RunMeans.NONE.plus(Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
