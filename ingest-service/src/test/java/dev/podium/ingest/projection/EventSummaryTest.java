package dev.podium.ingest.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.model.Accelerator;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunProgress;
import dev.podium.events.run.RunStarted;
import dev.podium.events.testing.SampleEvents;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class EventSummaryTest {

    private static final UUID RUN = UUID.fromString("0b1c9f5e-6f7a-4a51-9d2c-3b9f0f7a1e22");

    @Test
    void tenThousandPowerSamplesAreTheirKindUnitCountAndRanges() {
        List<Sample> samples = IntStream.range(0, 10_000)
                .mapToObj(i -> new Sample(i * 0.25, 400 + i % 200, 0, i % 2))
                .toList();
        assertThat(EventSummary.of(new MetricSampled(RUN, SeriesKind.POWER, "W", samples)))
                .isEqualTo("POWER in W: 10000 samples, t 0.0-2499.75 s, values 400.0-599.0");
        assertThat(EventSummary.of(
                        new MetricSampled(RUN, SeriesKind.POWER, "W", List.of(new Sample(3, 1, null, null)))))
                .isEqualTo("POWER in W: 1 sample, t 3.0-3.0 s, values 1.0-1.0");
        assertThat(EventSummary.of(new MetricSampled(RUN, SeriesKind.HOST_MEMORY, "GiB", List.of())))
                .isEqualTo("HOST_MEMORY in GiB: 0 samples");
    }

    @Test
    void aStartIsItsBenchmarkKeyDevicesAndRepetitions() {
        RunStarted r = started(SampleEvents.RUN_ID, List.of(accelerator("intel-gaudi2", 8)));
        assertThat(EventSummary.of(r))
                .isEqualTo(
                        r.key().benchmark() + ", key " + r.key().label() + "; devices intel-gaudi2 ×8; 3 repetitions");
    }

    @Test
    void anEndIsItsMetricsChecksAndDuration() {
        RunCompleted r = (RunCompleted) SampleEvents.runCompleted(RUN, "a", 3, List.of(30.0, 31.0, 32.0))
                .payload();
        assertThat(EventSummary.of(r))
                .isEqualTo("1 metrics: " + SampleEvents.THROUGHPUT_METRIC + "; 4 of 4 checks passed; 127.5 s");
    }

    @Test
    void aFailureIsItsPhaseExitAndReasonOnOneLine() {
        assertThat(EventSummary.of(new RunFailed(RUN, "measure", 137, "CUDA out of memory\r\n\tat step 4", null)))
                .isEqualTo("failed in measure (exit 137): CUDA out of memory   at step 4");
    }

    @Test
    void otherEventsAreCompactJsonWithoutTheRunId() {
        assertThat(EventSummary.of(new RunProgress(RUN, 1, 50, 100, "measure", "half way")))
                .isEqualTo("{\"message\":\"half way\",\"phase\":\"measure\",\"repetition\":1,\"step\":50,"
                        + "\"total_steps\":100}");
    }

    @Test
    void aLongReasonIsCutToOneBoundedLine() {
        String reason = String.join("\n", Collections.nCopies(2000, "Traceback line"));
        String summary = EventSummary.of(new RunFailed(RUN, "measure", 1, reason, reason));
        assertThat(summary).hasSize(EventSummary.MAX).endsWith("…").doesNotContain("\n");
        assertThat(summary.chars()).noneMatch(Character::isISOControl);
    }

    @Test
    void aThousandAcceleratorsAreCutAndTheCostStopsWithTheLine() {
        List<Accelerator> many = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            many.add(accelerator("planted-device-" + i, 1));
        }
        String summary = EventSummary.of(started(RUN, many));
        assertThat(summary)
                .hasSize(EventSummary.MAX)
                .contains("devices planted-device-0 ×1, planted-device-1 ×1")
                .doesNotContain("planted-device-1000")
                .endsWith("…");
    }

    @Test
    void aCutNeverSplitsACharacterOutsideTheBasicPlane() {
        // 198 characters of text, then emoji: the cut at 199 falls between the two halves of the first one.
        String reason = "x".repeat(EventSummary.MAX - "failed in p: ".length() - 2) + "😀".repeat(10);
        String summary = EventSummary.of(new RunFailed(RUN, "p", null, reason, null));
        assertThat(summary).endsWith("x…");
        assertThat(summary.length()).isLessThanOrEqualTo(EventSummary.MAX);
    }

    @Test
    void numbersKeepSixSignificantDigits() {
        assertThat(EventSummary.number(0.1 + 0.2)).isEqualTo("0.3");
        assertThat(EventSummary.number(2500)).isEqualTo("2500.0");
        assertThat(EventSummary.number(1e150)).isEqualTo("1.0E150");
        assertThat(EventSummary.number(412.53125)).isEqualTo("412.531");
    }

    private static RunStarted started(UUID run, List<Accelerator> accelerators) {
        RunStarted r = (RunStarted)
                SampleEvents.runStarted(run, "a", "intel-gaudi2", SampleEvents.referenceKey(2), SampleEvents.AT)
                        .payload();
        return new RunStarted(
                run,
                null,
                null,
                r.host(),
                accelerators,
                r.software(),
                r.workload(),
                r.key(),
                r.repetitions(),
                r.warmupSteps(),
                r.provenance(),
                r.devices());
    }

    private static Accelerator accelerator(String deviceId, int total) {
        return new Accelerator("vendor", "model", deviceId, 1L << 30, total, total, null, null, null, null);
    }
}
