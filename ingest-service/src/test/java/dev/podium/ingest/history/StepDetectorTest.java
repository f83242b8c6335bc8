package dev.podium.ingest.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StepDetectorTest {

    private final StepDetector detector = StepDetector.DEFAULT;

    @Test
    void aSingleRegressionIsFoundAtItsPointWithItsLevels() {
        double[] y = new double[40];
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < y.length; i++) {
            y[i] = (i < 25 ? 100 : 92) + gaussian(random);
        }
        List<StepDetector.Step> steps = detector.detect(y);

        assertThat(steps).hasSize(1);
        assertThat(steps.get(0).index()).isBetween(24, 26);
        assertThat(steps.get(0).before()).isCloseTo(100, within(1.0));
        assertThat(steps.get(0).after()).isCloseTo(92, within(1.0));
        assertThat(steps.get(0).ratio()).isLessThan(1);
    }

    /**
     * 500 seeded synthetic histories of 40 to 120 points with one to three steps of 5 to 8 σ (each at least 8 points from
     * the ends and from each other, up or down); every step must be found within one point of where it was made, and no
     * history may hold a step that was not made.
     */
    @Test
    void everyKnownStepIsFoundWithinOnePoint() {
        SplittableRandom random = new SplittableRandom(2026);
        int made = 0;
        int found = 0;
        int spurious = 0;
        for (int h = 0; h < 500; h++) {
            int n = 40 + random.nextInt(81);
            int count = 1 + random.nextInt(3);
            List<Integer> at = positions(random, n, count);
            double[] y = new double[n];
            double level = 1000;
            double sigma = 10;
            int next = 0;
            for (int i = 0; i < n; i++) {
                if (next < at.size() && i == at.get(next)) {
                    level += (random.nextBoolean() ? 1 : -1) * (5 + 3 * random.nextDouble()) * sigma;
                    next++;
                }
                y[i] = level + sigma * gaussian(random);
            }
            List<StepDetector.Step> steps = detector.detect(y);
            for (int p : at) {
                made++;
                if (steps.stream().anyMatch(s -> Math.abs(s.index() - p) <= 1)) {
                    found++;
                }
            }
            spurious += (int) steps.stream()
                    .filter(s -> at.stream().noneMatch(p -> Math.abs(s.index() - p) <= 1))
                    .count();
        }
        System.out.printf("steps: %d made, %d found within one point, %d spurious%n", made, found, spurious);
        assertThat(found).isEqualTo(made);
        assertThat(spurious).isZero();
    }

    private static List<Integer> positions(SplittableRandom random, int n, int count) {
        while (true) {
            List<Integer> at = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                at.add(8 + random.nextInt(n - 16));
            }
            at.sort(Integer::compare);
            boolean apart = true;
            for (int i = 1; i < at.size(); i++) {
                apart &= at.get(i) - at.get(i - 1) >= 8;
            }
            if (apart) {
                return at;
            }
        }
    }

    /**
     * Pure Gaussian noise: 4,000 seeded histories of 20 to 300 points (about 500,000 points). The stated rate is at most
     * one false step per 1,000 points.
     */
    @Test
    void pureNoiseRaisesAtMostOneFalseAlarmPerThousandPoints() {
        SplittableRandom random = new SplittableRandom(11);
        long points = 0;
        long alarms = 0;
        int[] lengths = {20, 30, 50, 100, 200, 300};
        for (int h = 0; h < 4000; h++) {
            int n = lengths[h % lengths.length];
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                y[i] = 50 + 0.5 * gaussian(random);
            }
            alarms += detector.detect(y).size();
            points += n;
        }
        double rate = (double) alarms / points;
        System.out.printf(
                java.util.Locale.ROOT,
                "false alarms on noise: %d in %d points = %.5f per point%n",
                alarms,
                points,
                rate);
        assertThat(rate).isLessThanOrEqualTo(0.001);
    }

    @Test
    void aSingleOutlierIsNotAStep() {
        double[] y = new double[30];
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < y.length; i++) {
            y[i] = 100 + gaussian(random);
        }
        y[15] = 106;
        assertThat(detector.detect(y)).isEmpty();
    }

    @Test
    void repeatedValuesWithOneChangeGiveOneStep() {
        double[] y = {5, 5, 5, 5, 5, 5, 7, 7, 7, 7, 7, 7};
        List<StepDetector.Step> steps = detector.detect(y);

        assertThat(steps).extracting(StepDetector.Step::index).containsExactly(6);
        assertThat(detector.detect(new double[] {3, 3, 3, 3, 3, 3, 3})).isEmpty();
    }

    @Test
    void shortHistoriesHaveNoSteps() {
        assertThat(detector.detect(new double[] {1, 2, 30, 40, 50})).isEmpty();
        assertThat(detector.detect(new double[0])).isEmpty();
    }

    @Test
    void nonFiniteValuesAreRefused() {
        assertThatThrownBy(() -> detector.detect(new double[] {1, 2, 3, Double.NaN, 5, 6, 7}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StepDetector(-1, 0, 3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theNoiseEstimateIgnoresSteps() {
        double[] y = new double[200];
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < y.length; i++) {
            y[i] = (i < 100 ? 0 : 50) + 2 * gaussian(random);
        }
        assertThat(StepDetector.noise(y)).isCloseTo(2, within(0.3));
    }

    /** A standard normal draw (Box-Muller). */
    static double gaussian(SplittableRandom random) {
        double u = 1 - random.nextDouble();
        double w = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
    }
}
