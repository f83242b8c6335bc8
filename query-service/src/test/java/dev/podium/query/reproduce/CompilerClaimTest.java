package dev.podium.query.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.published.ClaimValue;
import dev.podium.events.published.PublishedClaim;
import dev.podium.events.published.RatioBasis;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A compiler's speed-up is checked against a claim only when measured with the claim's compiler on the claim's device. */
class CompilerClaimTest {

    private static PublishedClaim claim(String compiler, String deviceId) {
        TreeMap<String, String> extra = new TreeMap<>();
        if (compiler != null) {
            extra.put("compiler", compiler);
        }
        ComparisonKey key =
                new ComparisonKey("aitemplate-inference", "1", "inference", "ResNet-50", "fp16", 1, 1, 224, extra);
        return new PublishedClaim(
                "a100-resnet50-ait-vs-eager",
                "meta-aitemplate",
                null,
                null,
                "ResNet-50 3x–12x",
                deviceId,
                "NVIDIA A100",
                null,
                key,
                "inference_throughput",
                "images/s",
                Direction.HIGHER_IS_BETTER,
                new ClaimValue.Range(3, 12),
                null,
                new RatioBasis("PyTorch eager on the same card", null, null, RatioBasis.RatioForm.TIMES));
    }

    private static ReproductionQueries.MeasuredRow compiled(String compiler, String deviceId, String label) {
        return new ReproductionQueries.MeasuredRow("cpu", "k", deviceId, label, compiler, 3, 120.0, 110.0, 130.0);
    }

    @Test
    void aitemplatesRangeIsNotComparableWithTorchScriptOnACpu() {
        String why = ReproductionService.compilerClaimDiffers(
                claim(null, "nvidia-a100-80gb"), compiled("torchscript-freeze", "cpu-amd-epyc", "AMD EPYC (CPU)"));

        assertThat(why)
                .contains("compiler torchscript-freeze, not the claim's (aitemplate-inference)")
                .contains("device AMD EPYC (CPU), not NVIDIA A100");
        ReproductionView.Ratio ratio = new ReproductionView.Ratio(
                "AMD EPYC (CPU)", 120, 40, 3, 3, 3.0, 2.5, 3.5, null, why, null, "\u00b15%", 12, null, List.of());
        assertThat(ratio.holds()).isNull();
        assertThat(ReproductionCells.verdictText(ratio))
                .startsWith("not comparable (")
                .endsWith("the measured speed-up is context");
        assertThat(ReproductionCells.verdictClass(ratio)).isEqualTo("verdict-not-comparable");
        assertThat(ReproductionCells.ratioText(ratio)).isEqualTo("3.00×");
    }

    @Test
    void theSameCompilerOnAnotherDeviceIsStillNotComparable() {
        assertThat(ReproductionService.compilerClaimDiffers(
                        claim("torch.compile", "nvidia-a100-80gb"),
                        compiled("torch.compile", "nvidia-h100-80gb", "NVIDIA H100")))
                .isEqualTo("device NVIDIA H100, not NVIDIA A100");
    }

    @Test
    void theClaimsOwnCompilerAndDeviceAreComparable() {
        assertThat(ReproductionService.compilerClaimDiffers(
                        claim("torch.compile", "nvidia-a100-80gb"),
                        compiled("torch.compile", "nvidia-a100-80gb", "NVIDIA A100 80GB")))
                .isNull();
    }
}
