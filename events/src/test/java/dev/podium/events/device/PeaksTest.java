package dev.podium.events.device;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.device.Peaks.Lookup;
import dev.podium.events.device.Peaks.Precision;
import org.junit.jupiter.api.Test;

class PeaksTest {

    @Test
    void everyDeviceIsACanonicalDeviceAndEveryFigureDenseWithItsSource() {
        assertThat(Peaks.all()).hasSizeGreaterThanOrEqualTo(9).allSatisfy(d -> {
            assertThat(DeviceAliases.byId(d.deviceId())).as(d.deviceId()).isPresent();
            assertThat(DeviceAliases.byId(d.deviceId()).get().variantSpecified())
                    .as("a peak belongs to one variant: " + d.deviceId())
                    .isTrue();
            assertThat(d.dense(Precision.BF16)).as(d.deviceId() + " BF16").isPresent();
            assertThat(d.flops()).allSatisfy(f -> {
                assertThat(f.dense()).isTrue();
                assertThat(f.teraFlops()).isPositive();
                assertThat(f.source().document()).isNotBlank();
                assertThat(f.source().read()).isNotNull();
            });
            assertThat(d.bandwidth().teraBytesPerSecond()).isPositive();
            assertThat(d.bandwidth().source().document()).isNotBlank();
        });
    }

    /** The dense figure, never the 2:4-sparsity headline that doubles it (H100: 989, not 1,979 TFLOPS in BF16). */
    @Test
    void theH100sBf16PeakIsTheDenseOne() {
        Lookup.Found h100 = (Lookup.Found) Peaks.of("nvidia-h100-sxm-80gb");
        assertThat(h100.peaks().dense(Precision.BF16).orElseThrow().teraFlops()).isEqualTo(989);
        assertThat(h100.peaks().dense(Precision.FP8).orElseThrow().teraFlops()).isEqualTo(1979);
        assertThat(h100.peaks().bandwidth().teraBytesPerSecond()).isEqualTo(3.35);
        assertThat(((Lookup.Found) Peaks.of("google-tpu-v5e")).peaks().dense(Precision.FP8))
                .as("a datasheet without FP8")
                .isEmpty();
    }

    @Test
    void aDeviceWithoutAPeakSaysWhy() {
        assertThat(Peaks.of("cpu-amd-epyc"))
                .isEqualTo(new Lookup.NoPeak(
                        "a CPU has no datasheet peak: compare it with the matmul rate measured on its host"));
        assertThat(Peaks.of("nvidia-h100"))
                .isInstanceOfSatisfying(
                        Lookup.NoPeak.class, n -> assertThat(n.reason()).contains("NVIDIA H100 (variant unspecified)"));
        for (String id : new String[] {"nvidia-h100-sxm-80gb-fake", "", "<script>", null}) {
            assertThat(Peaks.of(id))
                    .as(String.valueOf(id))
                    .isEqualTo(new Lookup.NoPeak(
                            "unknown device: peaks are kept for the canonical devices of the alias table only"));
        }
    }
}
