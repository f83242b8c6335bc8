package dev.podium.agent.measure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.parse.ParsedMetric;
import dev.podium.agent.support.Resources;
import dev.podium.events.model.Direction;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ValidityCheck;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryTest {

    private static ParsedMetric tput(double v) {
        return new ParsedMetric("tput", v, "samples/s", Direction.HIGHER_IS_BETTER);
    }

    @Test
    void perRepetitionValuesGetStatisticsAndOnlyMetricsOfEveryRepetitionCount() {
        List<Metric> m = Summary.metrics(
                List.of(
                        List.of(tput(100), new ParsedMetric("only_once", 1, "1", Direction.LOWER_IS_BETTER)),
                        List.of(tput(110)),
                        List.of(tput(90))),
                true);
        assertThat(m).singleElement().satisfies(x -> {
            assertThat(x.values()).containsExactly(100.0, 110.0, 90.0);
            assertThat(x.statistics().n()).isEqualTo(3);
            assertThat(x.statistics().mean()).isEqualTo(100.0);
            assertThat(x.statistics().median()).isEqualTo(100.0);
            assertThat(x.statistics().cv()).isEqualTo(0.1);
            assertThat(x.statistics().ci95Low()).isLessThan(100.0);
        });
    }

    @Test
    void noisyOrTooFewRepetitionsFailTheirChecks() {
        List<Metric> noisy = Summary.metrics(List.of(List.of(tput(50)), List.of(tput(150))), true);
        List<ValidityCheck> checks = Summary.validity(noisy, "tput", 2, 2, true);
        assertThat(checks)
                .filteredOn(c -> c.name().equals("cv_below_10pct"))
                .singleElement()
                .satisfies(c -> assertThat(c.passed()).isFalse());
        assertThat(checks)
                .filteredOn(c -> c.name().equals("min_repetitions"))
                .singleElement()
                .satisfies(c -> assertThat(c.passed()).isTrue()); // 2 of 2 asked for
        assertThat(Summary.validity(noisy, "tput", 5, 2, true))
                .filteredOn(c -> c.name().equals("min_repetitions"))
                .singleElement()
                .satisfies(c -> assertThat(c.passed()).isFalse());
    }

    @Test
    void negativeValuesAreNotPublishedAsResults() {
        assertThat(Summary.metrics(
                        List.of(List.of(new ParsedMetric("offset", -1, "1", Direction.LOWER_IS_BETTER))), true))
                .isEmpty();
    }

    @Test
    void nvidiaSmiSamplesBecomeUtilisationMemoryAndPowerPerDevice() {
        Sampler s = new Sampler(new ToolRunner(), 60_000);
        s.accelerators("0, 97, 70123, 612.34\n1, [N/A], 100, 80.5\n", 1.5);
        Map<SeriesKind, List<Sample>> series = s.finish();
        assertThat(series.get(SeriesKind.ACCELERATOR_UTILISATION)).containsExactly(new Sample(1.5, 97, null, 0));
        assertThat(series.get(SeriesKind.ACCELERATOR_MEMORY))
                .first()
                .satisfies(x -> assertThat(x.value()).isEqualTo(70123.0 * 1024 * 1024));
        assertThat(series.get(SeriesKind.POWER))
                .extracting(Sample::device)
                .containsExactly(0, 1); // "[N/A]" drops only that field
    }

    @Test
    void theSampleQueryAsAnIdleH200AnsweredIt() {
        Sampler s = new Sampler(new ToolRunner(), 60_000);
        s.accelerators(Resources.text("detect/nvidia-smi-h200-x1-sample.csv"), 0.5);
        Map<SeriesKind, List<Sample>> series = s.finish();
        assertThat(series.get(SeriesKind.ACCELERATOR_UTILISATION)).containsExactly(new Sample(0.5, 0, null, 0));
        assertThat(series.get(SeriesKind.POWER)).containsExactly(new Sample(0.5, 79.25, null, 0));
    }

    @Test
    void perRequestSamplesOfAllRepetitionsGiveTheMetricsPercentilesAndLatencyMetricsStayLowerIsBetter() {
        ParsedMetric rep1 =
                new ParsedMetric("e2e_latency_mean_ms", 2.5, "ms", Direction.LOWER_IS_BETTER, List.of(1.0, 2.0));
        ParsedMetric rep2 =
                new ParsedMetric("e2e_latency_mean_ms", 3.5, "ms", Direction.LOWER_IS_BETTER, List.of(3.0, 4.0));
        ParsedMetric p99a = new ParsedMetric("ttft_p99_ms", 101.5, "ms", Direction.LOWER_IS_BETTER);
        ParsedMetric p99b = new ParsedMetric("ttft_p99_ms", 99.5, "ms", Direction.LOWER_IS_BETTER);
        List<Metric> m = Summary.metrics(List.of(List.of(rep1, p99a), List.of(rep2, p99b)), true);
        assertThat(m.get(0).percentiles()).satisfies(p -> {
            assertThat(p.n()).isEqualTo(4);
            assertThat(p.p50()).isEqualTo(2.5, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(p.p90()).isEqualTo(3.7, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(p.p99()).isEqualTo(3.97, org.assertj.core.data.Offset.offset(1e-9));
        });
        assertThat(m.get(1).percentiles()).isNull(); // a harness's own percentile has no samples behind it
        assertThat(m.get(1).direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(m.get(1).statistics().mean()).isEqualTo(100.5);
    }
}
