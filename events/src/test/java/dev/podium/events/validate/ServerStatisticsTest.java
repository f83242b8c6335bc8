package dev.podium.events.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.Direction;
import dev.podium.events.model.Metric;
import dev.podium.events.model.PercentileBounds;
import dev.podium.events.model.Percentiles;
import dev.podium.events.model.Scope;
import dev.podium.events.model.Statistics;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.testing.SampleEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ServerStatisticsTest {

    private static final UUID RUN = SampleEvents.uuid("server-statistics");

    private static Envelope completed(List<Double> values, Statistics claimed, ValidityCheck... checks) {
        return completed(10.0, values, claimed, checks);
    }

    /** A run of long repetitions with the checks an agent writes: honest ones of the values, or of reported figures. */
    private static Envelope completed(List<Double> values, Statistics claimed) {
        ValidityCheck[] reported = {
            new ValidityCheck("min_repetitions", true, "3 of 3 repetitions"),
            new ValidityCheck("cv_below_10pct", true, "cv of train_samples_per_second = 25.00%"),
            new ValidityCheck("positive_finite", true, "train_samples_per_second values are positive and finite")
        };
        return completed(1000.0, values, claimed, values == null ? reported : honest(values));
    }

    private static Envelope completed(
            double seconds, List<Double> values, Statistics claimed, ValidityCheck... checks) {
        Metric m = new Metric(
                "train_samples_per_second",
                "samples/s",
                Direction.HIGHER_IS_BETTER,
                Scope.SYSTEM,
                true,
                values,
                claimed);
        return Envelope.of(
                UUID.randomUUID(),
                StreamId.run(RUN),
                3,
                "a1",
                SampleEvents.AT,
                new RunCompleted(RUN, List.of(m), List.of(checks), seconds));
    }

    /** The three checks every agent writes for {@code values} (repetitions, cv, positive), all honest. */
    private static ValidityCheck[] honest(List<Double> values, ValidityCheck... more) {
        Metric m = new Metric(
                "train_samples_per_second",
                "samples/s",
                Direction.HIGHER_IS_BETTER,
                Scope.SYSTEM,
                true,
                values,
                Statistics.of(values));
        List<ValidityCheck> out = new ArrayList<>(List.of(
                ValueChecks.repetitions(values.size(), values.size()),
                ValueChecks.cv(m),
                ValueChecks.positiveFinite(m)));
        out.addAll(List.of(more));
        return out.toArray(ValidityCheck[]::new);
    }

    private static List<Double> values(int n) {
        List<Double> v = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            v.add(600.0 + (i % 5));
        }
        return v;
    }

    private static Envelope withPercentiles(Percentiles p) {
        List<Double> values = values(3);
        Metric m = new Metric(
                "train_samples_per_second",
                "samples/s",
                Direction.HIGHER_IS_BETTER,
                Scope.SYSTEM,
                true,
                values,
                Statistics.of(values),
                p);
        return Envelope.of(
                UUID.randomUUID(),
                StreamId.run(RUN),
                3,
                "a1",
                SampleEvents.AT,
                new RunCompleted(RUN, List.of(m), List.of(honest(values)), 1000.0));
    }

    @Test
    void percentilesOfTheirOwnValuesPass() {
        List<Double> requests = new ArrayList<>();
        for (int i = 1; i <= 500; i++) {
            requests.add(i * 0.5);
        }
        assertThat(ServerStatistics.violations(withPercentiles(Percentiles.of(requests))))
                .isEmpty();
        assertThat(ServerStatistics.violations(withPercentiles(new Percentiles(500, 1, 2, 3))))
                .as("percentiles of an agent that predates intervals")
                .isEmpty();
    }

    @Test
    void aClosedIntervalOfAP99FromFiftyRequestsIsRefused() {
        // a writer that claims an upper bound no 50 values can give: the p99 may lie past the largest of them
        Percentiles lying = new Percentiles(
                50,
                10,
                20,
                30,
                new PercentileBounds(9.0, 11.0),
                new PercentileBounds(15.0, 25.0),
                new PercentileBounds(28.0, 31.0));
        assertThat(ServerStatistics.violations(withPercentiles(lying)))
                .extracting(Violation::field)
                .containsExactly("payload.metrics[0].percentiles.p99_bounds.high");
    }

    @Test
    void boundsThatDoNotHoldTheirPercentileOrPercentilesOutOfOrderAreRefused() {
        Percentiles lying = new Percentiles(
                1000,
                10,
                9,
                30,
                new PercentileBounds(11.0, 12.0),
                new PercentileBounds(8.0, 8.5),
                new PercentileBounds(null, 31.0));
        assertThat(ServerStatistics.violations(withPercentiles(lying)))
                .extracting(Violation::field)
                .containsExactlyInAnyOrder(
                        "payload.metrics[0].percentiles",
                        "payload.metrics[0].percentiles.p50_bounds.low",
                        "payload.metrics[0].percentiles.p90_bounds.high",
                        "payload.metrics[0].percentiles.p99_bounds.low");
    }

    @Test
    void statisticsTheValuesGiveAreAccepted() {
        List<Double> v = values(3);
        assertThat(ServerStatistics.violations(completed(v, Statistics.of(v)))).isEmpty();
    }

    @Test
    void aMeanTheValuesDoNotGiveIsRejected() {
        List<Double> v = List.of(600.0, 601.0, 602.0);
        Statistics s = Statistics.of(v);
        Statistics lie =
                new Statistics(3, 99999.0, s.median(), s.stdev(), s.min(), s.max(), s.ci95Low(), s.ci95High(), s.cv());
        assertThat(ServerStatistics.violations(completed(v, lie)))
                .extracting(Violation::toString)
                .contains("payload.metrics[0].statistics.mean: 99999.0 is not what the 3 values give (601.0)");
    }

    @Test
    void anIntervalFromTheOldTTableIsAcceptedAndAWiderOneIsNot() {
        List<Double> v = values(32);
        Statistics s = Statistics.of(v);
        double half = (s.ci95High() - s.ci95Low()) / 2;
        // df 31: the old table's 2.021 against an exact 2.0395, whichever of the two Statistics.of uses now
        for (double ratio : List.of(2.021 / 2.0395, 2.0395 / 2.021)) {
            Statistics old = new Statistics(
                    32,
                    s.mean(),
                    s.median(),
                    s.stdev(),
                    s.min(),
                    s.max(),
                    s.mean() - half * ratio,
                    s.mean() + half * ratio,
                    s.cv());
            assertThat(ServerStatistics.violations(completed(v, old))).isEmpty();
        }
        Statistics wide = new Statistics(
                32,
                s.mean(),
                s.median(),
                s.stdev(),
                s.min(),
                s.max(),
                s.mean() - 2 * half,
                s.mean() + 2 * half,
                s.cv());
        assertThat(ServerStatistics.violations(completed(v, wide)))
                .extracting(Violation::field)
                .containsExactly("payload.metrics[0].statistics.ci95");
    }

    @Test
    void roundedFiguresAreAccepted() {
        List<Double> v = List.of(600.123456, 601.654321, 602.111111);
        Statistics s = Statistics.of(v);
        Statistics rounded = new Statistics(
                3,
                Math.round(s.mean() * 1000) / 1000.0,
                s.median(),
                Math.round(s.stdev() * 1000) / 1000.0,
                s.min(),
                s.max(),
                s.ci95Low(),
                s.ci95High(),
                s.cv());
        assertThat(ServerStatistics.violations(completed(v, rounded))).isEmpty();
    }

    @Test
    void aCountThatIsNotTheValuesOrTooLargeIsRejected() {
        List<Double> v = List.of(600.0, 601.0, 602.0);
        Statistics s = Statistics.of(v);
        Statistics four =
                new Statistics(4, s.mean(), s.median(), s.stdev(), s.min(), s.max(), s.ci95Low(), s.ci95High(), s.cv());
        assertThat(ServerStatistics.violations(completed(v, four)))
                .extracting(Violation::toString)
                .containsExactly("payload.metrics[0].statistics.n: 4 is not the 3 values sent");
        Statistics huge = new Statistics(Integer.MAX_VALUE, 1, 1, 0, 1, 1, 1, 1, 0);
        assertThat(ServerStatistics.violations(completed(null, huge)))
                .extracting(Violation::toString)
                .containsExactly("payload.metrics[0].statistics.n: 2147483647 is over the limit of 1000000");
    }

    @Test
    void figuresWithoutValuesAreKeptAsReported() {
        Statistics percentiles = new Statistics(1000, 12.0, 11.0, 3.0, 2.0, 90.0, 11.5, 12.5, 0.25);
        assertThat(ServerStatistics.violations(completed(null, percentiles))).isEmpty();
    }

    @Test
    void checksTheValuesContradictAreRejected() {
        List<Double> v = List.of(100.0, 600.0, 1200.0);
        assertThat(ServerStatistics.violations(completed(
                        v,
                        Statistics.of(v),
                        new ValidityCheck("cv_below_10pct", true, "cv of train_samples_per_second = 1.00%"),
                        new ValidityCheck(
                                "min_repetitions",
                                true,
                                "1 of 5 repetitions (3 or more wanted for a confidence interval)"),
                        new ValidityCheck(
                                "positive_finite", true, "train_samples_per_second values are positive and finite"))))
                .extracting(Violation::toString)
                .containsExactly(
                        "payload.validity[0].passed: cv_below_10pct cannot pass: the cv of train_samples_per_second's"
                                + " values is 86.96%",
                        "payload.validity[1].passed: min_repetitions cannot pass: it claims 1 repetitions where the"
                                + " metrics have 3 values each");
        List<Double> steady = List.of(600.0, 601.0, 602.0);
        assertThat(ServerStatistics.violations(completed(
                        steady,
                        Statistics.of(steady),
                        new ValidityCheck("cv_below_10pct", true, "cv of train_samples_per_second = 0.17%"),
                        new ValidityCheck(
                                "positive_finite", true, "train_samples_per_second values are positive and finite"),
                        new ValidityCheck("min_repetitions", true, "3 of 3 repetitions"))))
                .isEmpty();
    }

    @Test
    void extremeButFiniteValuesGiveFiniteStatistics() {
        List<Double> v = List.of(1e-300, 1e150, 1e150);
        assertThat(ServerStatistics.violations(completed(v, Statistics.of(v)))).isEmpty();
        assertThat(Double.isFinite(Statistics.of(v).ci95High())).isTrue();
    }

    @Test
    void theChecksAnAgentWritesForItsValuesPassWhetherTheyHoldOrNot() {
        assertThat(ServerStatistics.violations(SampleEvents.runCompleted(RUN, "a1", 3, List.of(600.0, 601.0, 602.0))))
                .isEmpty();
        assertThat(ServerStatistics.violations(SampleEvents.runCompleted(RUN, "a1", 3, List.of(100.0, 600.0))))
                .isEmpty();
    }

    @Test
    void aPassingMinDurationThatTheRunsDurationCannotHoldIsRejected() {
        List<Double> v = List.of(600.0, 601.0, 602.0);
        ValidityCheck lie = ValueChecks.duration(List.of(12.0, 12.0, 12.0));
        assertThat(ServerStatistics.violations(completed(36.0, v, Statistics.of(v), honest(v, lie))))
                .isEmpty();
        assertThat(ServerStatistics.violations(completed(3.0, v, Statistics.of(v), honest(v, lie))))
                .extracting(Violation::toString)
                .containsExactly("payload.validity[3].passed: min_duration cannot pass:"
                        + " 3 repetitions of 12.00 s or more do not fit in the run's duration of 3.0 s");
    }

    @Test
    void aPassingMinDurationUnderThePlatformsLimitIsRejectedWhateverLimitItsDetailNames() {
        List<Double> v = List.of(600.0, 601.0, 602.0);
        ValidityCheck lie = new ValidityCheck("min_duration", true, "shortest repetition 0.50 s (0 s or more wanted)");
        assertThat(ServerStatistics.violations(completed(v, Statistics.of(v), honest(v, lie))))
                .extracting(Violation::toString)
                .containsExactly("payload.validity[3].passed: min_duration cannot pass:"
                        + " its shortest repetition ran 0.50 s, under 2 s");
    }

    @Test
    void aRunWithoutMinDurationMustLastItsRepetitions() {
        List<Double> v = List.of(600.0, 601.0, 602.0);
        assertThat(ServerStatistics.violations(completed(6.0, v, Statistics.of(v), honest(v))))
                .isEmpty();
        assertThat(ServerStatistics.violations(completed(1.5, v, Statistics.of(v), honest(v))))
                .extracting(Violation::toString)
                .containsExactly("payload.duration_seconds: a run whose checks all pass"
                        + " must hold 3 repetitions of 2 s or more, which 1.5 s cannot");
    }

    @Test
    void aPassingValueCheckWhoseDetailSaysNothingTheServerCanJudgeIsRejected() {
        List<Double> v = List.of(600.0, 601.0, 602.0);
        assertThat(ServerStatistics.violations(completed(
                        v,
                        Statistics.of(v),
                        new ValidityCheck("min_repetitions", true, "enough"),
                        new ValidityCheck("cv_below_10pct", true, "cv of another_metric = 0.10%"),
                        new ValidityCheck("positive_finite", true, null),
                        new ValidityCheck("min_duration", true, "long enough"),
                        new ValidityCheck("warmup_excluded", true, "anything"))))
                .extracting(Violation::field)
                .containsExactly(
                        "payload.validity[0].detail",
                        "payload.validity[1].detail",
                        "payload.validity[2].detail",
                        "payload.validity[3].detail");
    }

    @Test
    void aPassingMinRepetitionsMustCountTheValuesSent() {
        List<Double> v = List.of(600.0);
        ValidityCheck[] checks = honest(v);
        checks[0] = ValueChecks.repetitions(3, 3);
        assertThat(ServerStatistics.violations(completed(v, Statistics.of(v), checks)))
                .extracting(Violation::toString)
                .containsExactly(
                        "payload.validity[0].passed: min_repetitions cannot pass: it claims 3 repetitions where"
                                + " the metrics have 1 values each");
    }

    @Test
    void aRunWhoseChecksAllPassMustCarryTheChecksOfItsValues() {
        List<Double> v = List.of(100.0, 600.0, 1200.0);
        assertThat(ServerStatistics.violations(completed(
                        v,
                        Statistics.of(v),
                        new ValidityCheck("warmup_excluded", true, "separated: measured after the warm-up steps"),
                        new ValidityCheck("cv_below_90pct", true, "cv of train_samples_per_second = 86.96%"))))
                .extracting(Violation::toString)
                .containsExactly("payload.validity: a run whose checks all pass must"
                        + " carry the checks the server re-evaluates; missing: min_repetitions, cv_below_10pct,"
                        + " positive_finite");
        assertThat(ServerStatistics.violations(completed(
                        v,
                        Statistics.of(v),
                        ValueChecks.repetitions(3, 3),
                        new ValidityCheck(
                                "warmup_excluded", false, "the workload does not report warm-up separately"))))
                .isEmpty();
    }
}
