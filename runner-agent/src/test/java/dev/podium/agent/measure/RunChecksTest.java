package dev.podium.agent.measure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.parse.JsonLinesParser;
import dev.podium.events.model.ValidityCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RunChecksTest {

    @Test
    void lossThatFallsPassesAndLossThatDoesNotFailsNamingTheRepetition() {
        List<Double> falling = new ArrayList<>();
        List<Double> flat = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            falling.add(2.5 * Math.exp(-i / 10.0) + 0.05 * Math.sin(i));
            flat.add(2.3 + 0.05 * Math.sin(i * 1.3));
        }
        assertThat(RunChecks.lossDecreased(List.of(falling, falling))
                        .orElseThrow()
                        .passed())
                .isTrue();
        ValidityCheck failed = RunChecks.lossDecreased(List.of(falling, flat)).orElseThrow();
        assertThat(failed.name()).isEqualTo("loss_decreased");
        assertThat(failed.passed()).isFalse();
        assertThat(failed.detail()).startsWith("repetition 2:");
    }

    @Test
    void lossIsNotJudgedWithFewerThanEightStepsOrNonFiniteValues() {
        assertThat(RunChecks.lossDecreased(List.of(List.of(2.0, 1.0, 0.5)))).isEmpty();
        assertThat(RunChecks.lossDecreased(List.of())).isEmpty();
        List<Double> nan = new ArrayList<>(
                List.of(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 1.0));
        assertThat(RunChecks.lossDecreased(List.of(nan))).isEmpty();
    }

    @Test
    void aBusyOrSharedDeviceFailsAndAnUnobservableOneIsNotChecked() {
        assertThat(RunChecks.deviceNotShared(2.0, Set.of()).orElseThrow().passed())
                .isTrue();
        ValidityCheck busy = RunChecks.deviceNotShared(85.0, Set.of()).orElseThrow();
        assertThat(busy.passed()).isFalse();
        assertThat(busy.detail()).contains("utilisation before start 85%");
        ValidityCheck shared =
                RunChecks.deviceNotShared(0.0, Set.of(4242L, 77L)).orElseThrow();
        assertThat(shared.passed()).isFalse();
        assertThat(shared.detail()).contains("2 other compute process(es)").contains("pid 77, 4242");
        assertThat(RunChecks.deviceNotShared(null, Set.of())).isEmpty();
    }

    @Test
    void theDetectedDeviceMustBeTheOneAskedFor() {
        assertThat(RunChecks.deviceMatches("nvidia-h100-sxm-80gb", "nvidia-h100-sxm-80gb")
                        .orElseThrow()
                        .passed())
                .isTrue();
        assertThat(RunChecks.deviceMatches("nvidia-h100", "nvidia-h100-sxm-80gb")
                        .orElseThrow()
                        .passed())
                .isTrue();
        ValidityCheck mismatch =
                RunChecks.deviceMatches("intel-gaudi2", "nvidia-h100-sxm-80gb").orElseThrow();
        assertThat(mismatch.passed()).isFalse();
        assertThat(mismatch.detail()).isEqualTo("asked for intel-gaudi2, detected nvidia-h100-sxm-80gb");
        assertThat(RunChecks.deviceMatches("nvidia-h100-pcie-80gb", "nvidia-h100-sxm-80gb")
                        .orElseThrow()
                        .passed())
                .isFalse();
        assertThat(RunChecks.deviceMatches("intel-gaudi2", null).orElseThrow().passed())
                .isFalse();
        assertThat(RunChecks.deviceMatches(null, "nvidia-h100-sxm-80gb")).isEmpty();
        assertThat(RunChecks.deviceMatches("  ", "nvidia-h100-sxm-80gb")).isEmpty();
    }

    @Test
    void computeProcessesAreReadFromNvidiaSmiAndTheAgentsOwnAreNotForeign() {
        assertThat(RunChecks.computeProcesses("1234\n[N/A]\n\n5678, 100 MiB\nno running processes found\n"))
                .containsExactly(1234L, 5678L);
        Sampler s = new Sampler(new ToolRunner(), 60_000);
        s.computeApps(ProcessHandle.current().pid() + "\n999999991\n");
        assertThat(s.foreignProcesses()).containsExactly(999999991L);
        s.close();
        assertThat(Sampler.highestUtilisation("0, 3, 100, 50\n1, 97, 100, 300\n2, [N/A], 1, 1\n"))
                .isEqualTo(97.0);
        assertThat(Sampler.highestUtilisation("garbage")).isNull();
    }

    @Test
    void stepLinesCarryTheirLossUnlessTheyAreWarmUp() {
        assertThat(JsonLinesParser.stepLoss(
                        "{\"podium\": 1, \"type\": \"step\", \"step\": 3, \"warmup\": false, \"samples\": 8, "
                                + "\"seconds\": 0.1, \"samples_per_second\": 80, \"loss\": 2.25}"))
                .hasValue(2.25);
        assertThat(JsonLinesParser.stepLoss("{\"podium\": 1, \"type\": \"step\", \"warmup\": true, \"loss\": 2.25}"))
                .isEmpty();
        assertThat(JsonLinesParser.stepLoss("{\"podium\": 1, \"type\": \"step\", \"loss\": \"NaN\"}"))
                .isEmpty();
        assertThat(JsonLinesParser.stepLoss("loss 2.0")).isEmpty();
    }

    /** The sample query's answer from an idle H200 (captured on main as detect/nvidia-smi-h200-x1-sample.csv). */
    @Test
    void anIdleH200BeforeTheRunPassesDeviceNotShared() {
        Double before = Sampler.highestUtilisation("0, 0, 0, 79.25\n");

        assertThat(before).isEqualTo(0.0);
        assertThat(RunChecks.deviceNotShared(before, Set.of()).orElseThrow()).satisfies(c -> {
            assertThat(c.passed()).isTrue();
            assertThat(c.detail()).isEqualTo("utilisation before start 0%; no other compute process seen");
        });
    }
}
