package dev.podium.query.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seeded simulations of log-normal run values (20,000 repetitions a case): the equivalence verdict's type I error at the
 * margin, the coverage of the 90% interval and of the interval from leaderboard rows' means and intervals, and the power
 * the runs-needed formula promises. Each bound allows three standard errors of the simulated rate.
 */
class EquivalenceSimulationTest {

    private static final int REPETITIONS = 20_000;
    private static final Set<Equivalence.Call> EQUIVALENT =
            EnumSet.of(Equivalence.Call.SAME, Equivalence.Call.FASTER_WITHIN, Equivalence.Call.SLOWER_WITHIN);
    private static final Margin MARGIN = new Margin(5);

    @ParameterizedTest(name = "n {0} vs {1}, log sd {2} vs {3}, at {4} the margin")
    @CsvSource({
        "3, 3, 0.01, 0.01, 1",
        "5, 5, 0.02, 0.02, 1",
        "10, 4, 0.02, 0.01, 1",
        "3, 3, 0.01, 0.01, -1",
        "8, 8, 0.03, 0.03, -1"
    })
    void sameIsSaidAtMostFivePercentOfTheTimeWhenTheTrueRatioLiesOnTheMargin(
            int n, int nb, double sd, double sdb, int side) {
        SplittableRandom random = new SplittableRandom(39);
        double truth = side * MARGIN.logBound();
        int said = 0;
        for (int i = 0; i < REPETITIONS; i++) {
            if (EQUIVALENT.contains(
                    Equivalence.of(draw(random, n, nb, sd, sdb, truth), MARGIN).call())) {
                said++;
            }
        }
        double rate = (double) said / REPETITIONS;
        System.out.printf("equivalence said at the margin (n %d vs %d, sd %s vs %s): %.4f%n", n, nb, sd, sdb, rate);
        assertThat(rate).isLessThanOrEqualTo(0.05 + 3 * Math.sqrt(0.05 * 0.95 / REPETITIONS));
    }

    @ParameterizedTest(name = "n {0} vs {1}, log sd {2} vs {3}")
    @CsvSource({"3, 3, 0.02, 0.02", "5, 3, 0.05, 0.01", "30, 30, 0.03, 0.03"})
    void theNinetyPercentIntervalCoversTheTrueRatio(int n, int nb, double sd, double sdb) {
        SplittableRandom random = new SplittableRandom(39);
        double truth = 0.03;
        int covered = 0;
        for (int i = 0; i < REPETITIONS; i++) {
            Equivalence e = Equivalence.of(draw(random, n, nb, sd, sdb, truth), MARGIN);
            if (Math.log(e.low90()) <= truth && truth <= Math.log(e.high90())) {
                covered++;
            }
        }
        double rate = (double) covered / REPETITIONS;
        System.out.printf("90%% interval coverage (n %d vs %d): %.4f%n", n, nb, rate);
        assertThat(rate).isGreaterThanOrEqualTo(0.90 - 3 * Math.sqrt(0.90 * 0.10 / REPETITIONS));
    }

    @ParameterizedTest(name = "{0} runs a side, coefficient of variation {1}")
    @CsvSource({"3, 0.02", "5, 0.03", "10, 0.05"})
    void theIntervalFromTwoLeaderboardRowsCoversTheTrueRatio(int runs, double cv) {
        SplittableRandom random = new SplittableRandom(39);
        double ratio = 1.2;
        int covered = 0;
        for (int i = 0; i < REPETITIONS; i++) {
            LogSample a = row(random, runs, 120, cv);
            LogSample b = row(random, runs, 100, cv);
            RatioInterval r = RatioEstimator.estimateClosedForm(a, b, false).orElseThrow();
            if (r.low() <= ratio && ratio <= r.high()) {
                covered++;
            }
        }
        double rate = (double) covered / REPETITIONS;
        System.out.printf("95%% interval from leaderboard rows (%d runs, cv %s): %.4f%n", runs, cv, rate);
        assertThat(rate).isGreaterThanOrEqualTo(0.95 - 3 * Math.sqrt(0.95 * 0.05 / REPETITIONS));
    }

    @ParameterizedTest(name = "log sd {0}")
    @CsvSource({"0.02", "0.04"})
    void theRunsNeededGiveTheStatedPower(double sd) {
        RunsNeeded runs = RunsNeeded.of(new LogDifference(0, 0, 0, sd * sd, sd * sd, 0, 0), MARGIN.logBound());
        SplittableRandom random = new SplittableRandom(39);
        int apart = 0;
        int same = 0;
        for (int i = 0; i < REPETITIONS; i++) {
            LogDifference far = draw(random, runs.toTellApart(), runs.toTellApart(), sd, sd, MARGIN.logBound());
            if (RatioEstimator.interval(far).low() > 1) {
                apart++;
            }
            LogDifference near = draw(random, runs.toShowSame(), runs.toShowSame(), sd, sd, 0);
            if (EQUIVALENT.contains(Equivalence.of(near, MARGIN).call())) {
                same++;
            }
        }
        double floor = RunsNeeded.POWER - 3 * Math.sqrt(RunsNeeded.POWER * (1 - RunsNeeded.POWER) / REPETITIONS);
        System.out.printf(
                "power at %s (sd %s): apart %.4f with %d, same %.4f with %d%n",
                MARGIN.text(),
                sd,
                (double) apart / REPETITIONS,
                runs.toTellApart(),
                (double) same / REPETITIONS,
                runs.toShowSame());
        assertThat((double) apart / REPETITIONS).isGreaterThanOrEqualTo(floor);
        assertThat((double) same / REPETITIONS).isGreaterThanOrEqualTo(floor);
    }

    /** Two sides of log-normal values whose true log ratio is {@code truth}. */
    private static LogDifference draw(SplittableRandom random, int n, int nb, double sd, double sdb, double truth) {
        return RatioEstimator.difference(sample(random, n, truth, sd), sample(random, nb, 0, sdb), false)
                .orElseThrow();
    }

    private static LogSample sample(SplittableRandom random, int n, double logMean, double sd) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = Math.exp(logMean + sd * gaussian(random));
        }
        return LogSample.of(v);
    }

    /** A leaderboard row of {@code runs} normal run means: their mean, and the t interval a row keeps. */
    private static LogSample row(SplittableRandom random, int runs, double mean, double cv) {
        double[] v = new double[runs];
        double sum = 0;
        for (int i = 0; i < runs; i++) {
            v[i] = mean * (1 + cv * gaussian(random));
            sum += v[i];
        }
        double m = sum / runs;
        double ss = 0;
        for (double x : v) {
            ss += (x - m) * (x - m);
        }
        double half = dev.podium.events.model.StudentT.quantile975(runs - 1) * Math.sqrt(ss / (runs - 1) / runs);
        return LogSample.ofRow(m, runs, m - half, m + half);
    }

    private static double gaussian(SplittableRandom random) {
        double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
