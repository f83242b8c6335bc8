package dev.podium.agent.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.agent.support.RecordedTools;
import dev.podium.agent.support.Resources;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** AMD accelerators sampled through rocm-smi, against recorded outputs (see src/test/resources/detect/SOURCES.md). */
class SamplerTest {

    @Test
    void rocmSmiUseAndVramBecomeUtilisationAndMemoryOfTheCard() {
        Sampler s = new Sampler(new RecordedTools(Map.of()), 60_000);
        s.rocmSmi(Resources.text("detect/rocm-smi-use-vram-rx7900xt.json"), 2.0);
        Map<SeriesKind, List<Sample>> series = s.finish();
        assertThat(series.get(SeriesKind.ACCELERATOR_UTILISATION)).containsExactly(new Sample(2.0, 0, null, 0));
        assertThat(series.get(SeriesKind.ACCELERATOR_MEMORY)).containsExactly(new Sample(2.0, 27856896, null, 0));
        assertThat(series).doesNotContainKey(SeriesKind.POWER);
    }

    @Test
    void rocmSmiPowerIsReadWhateverTheReleaseCallsIt() {
        Sampler s = new Sampler(new RecordedTools(Map.of()), 60_000);
        s.rocmSmi(Resources.text("detect/rocm-smi-780m.json"), 1.0);
        Map<SeriesKind, List<Sample>> series = s.finish();
        assertThat(series.get(SeriesKind.ACCELERATOR_UTILISATION)).containsExactly(new Sample(1.0, 19, null, 0));
        assertThat(series.get(SeriesKind.POWER)).containsExactly(new Sample(1.0, 7.222, null, 0));
        assertThat(series).doesNotContainKey(SeriesKind.ACCELERATOR_MEMORY); // that release prints only a percentage
    }

    @Test
    void aHostWithOnlyRocmSmiIsSampledThroughIt() {
        RecordedTools tools =
                new RecordedTools(Map.of(Sampler.ROCM_QUERY, Resources.text("detect/rocm-smi-use-vram-rx7900xt.json")));
        AtomicReference<Map<SeriesKind, List<Sample>>> seen = new AtomicReference<>();
        try (Sampler s = new Sampler(tools, 20)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                seen.set(s.snapshot());
                return seen.get().containsKey(SeriesKind.ACCELERATOR_MEMORY);
            });
        }
        assertThat(seen.get().get(SeriesKind.ACCELERATOR_MEMORY)).allSatisfy(x -> {
            assertThat(x.value()).isEqualTo(27856896.0);
            assertThat(x.device()).isZero();
        });
    }

    @Test
    void garbledRocmSmiOutputAddsNothing() {
        Sampler s = new Sampler(new RecordedTools(Map.of()), 60_000);
        s.rocmSmi("{not json", 1.0);
        s.rocmSmi("[1, 2]", 1.0);
        s.rocmSmi(
                "{\"card0\": {\"GPU use (%)\": \"N/A\", \"VRAM Total Used Memory (B)\": \"-5\"}, \"cardX\": {}, "
                        + "\"card99999999\": {\"GPU use (%)\": \"5\"}}",
                1.0);
        assertThat(s.finish())
                .doesNotContainKeys(
                        SeriesKind.ACCELERATOR_UTILISATION, SeriesKind.ACCELERATOR_MEMORY, SeriesKind.POWER);
    }
}
