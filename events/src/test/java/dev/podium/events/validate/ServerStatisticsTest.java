package dev.podium.events.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.Direction;
import dev.podium.events.model.Metric;
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
        Metric m = new Metric("train_samples_per_second", "samples/s", Direction.HIGHER_IS_BETTER, Scope.SYSTEM, true,
                values, claimed);
        return Envelope.of(UUID.randomUUID(), StreamId.run(RUN), 3, "a1", SampleEvents.AT,
                new RunCompleted(RUN, List.of(m), List.of(checks), 10.0));
    }

    private static List<Double> values(int n) {
        List<Double> v = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            v.add(600.0 + (i % 5));
        }
        return v;
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
        Statistics lie = new Statistics(3, 99999.0, s.median(), s.stdev(), s.min(), s.max(), s.ci95Low(), s.ci95High(),
                s.cv());
        assertThat(ServerStatistics.violations(completed(v, lie))).extracting(Violation::toString).contains(
                "payload.metrics[0].statistics.mean: 99999.0 is not what the 3 values give (601.0)");
    }

    @Test
    void anIntervalFromTheOldTTableIsAcceptedAndAWiderOneIsNot() {
        List<Double> v = values(32);
        Statistics s = Statistics.of(v);
        double half = (s.ci95High() - s.ci95Low()) / 2;
        // df 31: the old table's 2.021 against an exact 2.0395, whichever of the two Statistics.of uses now
        for (double ratio : List.of(2.021 / 2.0395, 2.0395 / 2.021)) {
            Statistics old = new Statistics(32, s.mean(), s.median(), s.stdev(), s.min(), s.max(),
                    s.mean() - half * ratio, s.mean() + half * ratio, s.cv());
            assertThat(ServerStatistics.violations(completed(v, old))).isEmpty();
        }
        Statistics wide = new Statistics(32, s.mean(), s.median(), s.stdev(), s.min(), s.max(), s.mean() - 2 * half,
                s.mean() + 2 * half, s.cv());
        assertThat(ServerStatistics.violations(completed(v, wide))).extracting(Violation::field)
                .containsExactly("payload.metrics[0].statistics.ci95");
    }

    @Test
    void roundedFiguresAreAccepted() {
        List<Double> v = List.of(600.123456, 601.654321, 602.111111);
        Statistics s = Statistics.of(v);
        Statistics rounded = new Statistics(3, Math.round(s.mean() * 1000) / 1000.0, s.median(),
                Math.round(s.stdev() * 1000) / 1000.0, s.min(), s.max(), s.ci95Low(), s.ci95High(), s.cv());
        assertThat(ServerStatistics.violations(completed(v, rounded))).isEmpty();
    }

    @Test
    void aCountThatIsNotTheValuesOrTooLargeIsRejected() {
        List<Double> v = List.of(600.0, 601.0, 602.0);
        Statistics s = Statistics.of(v);
        Statistics four = new Statistics(4, s.mean(), s.median(), s.stdev(), s.min(), s.max(), s.ci95Low(), s.ci95High(),
                s.cv());
        assertThat(ServerStatistics.violations(completed(v, four))).extracting(Violation::toString)
                .containsExactly("payload.metrics[0].statistics.n: 4 is not the 3 values sent");
        Statistics huge = new Statistics(Integer.MAX_VALUE, 1, 1, 0, 1, 1, 1, 1, 0);
        assertThat(ServerStatistics.violations(completed(null, huge))).extracting(Violation::toString)
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
        assertThat(ServerStatistics.violations(completed(v, Statistics.of(v),
                new ValidityCheck("cv_below_10pct", true, "cv of train_samples_per_second = 1.00%"),
                new ValidityCheck("min_repetitions", true, "1 of 5 repetitions (3 or more wanted for a confidence interval)"))))
                .extracting(Violation::field).containsExactly("payload.validity[0].passed", "payload.validity[1].passed");
        List<Double> steady = List.of(600.0, 601.0, 602.0);
        assertThat(ServerStatistics.violations(completed(steady, Statistics.of(steady),
                new ValidityCheck("cv_below_10pct", true, "cv of train_samples_per_second = 0.17%"),
                new ValidityCheck("positive_finite", true, "train_samples_per_second values are positive and finite"),
                new ValidityCheck("min_repetitions", true, "3 of 3 repetitions")))).isEmpty();
    }

    @Test
    void extremeButFiniteValuesGiveFiniteStatistics() {
        List<Double> v = List.of(1e-300, 1e150, 1e150);
        assertThat(ServerStatistics.violations(completed(v, Statistics.of(v)))).isEmpty();
        assertThat(Double.isFinite(Statistics.of(v).ci95High())).isTrue();
    }
}
