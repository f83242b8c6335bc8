package dev.podium.agent.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.podium.agent.job.JobSpecException;
import dev.podium.agent.job.JobSpecReader;
import dev.podium.events.model.Software;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdapterTest {

    private static final Path SCRIPTS = Path.of("/w");

    private static Adapter adapter(String yaml) {
        return Adapter.of(new JobSpecReader().read(yaml).spec());
    }

    @Test
    void moreThanOneProcessRunsThroughTorchrunAndCountsAcceleratorsInTheKey() {
        Adapter a = adapter("benchmark: b\nadapter: reference\n");
        Map<String, String> point = Map.of("nproc", "2", "device", "cpu");
        assertThat(a.command("/usr/bin/python3", SCRIPTS, point, 2))
                .startsWith(
                        "/usr/bin/python3",
                        "-u",
                        "/w/podium_torchrun.py",
                        "--standalone",
                        "--nproc_per_node",
                        "2",
                        "/w/podium_reference.py");
        assertThat(a.defaults(null, point).totalAccelerators()).isEqualTo(2);
        assertThat(a.devicesPerNode(null, point)).isEqualTo(2);
        assertThat(a.command("/usr/bin/python3", SCRIPTS, Map.of(), 2)).doesNotContain("/w/podium_torchrun.py");
    }

    @Test
    void theLargestBatchSweepNeedsOnlyItsOwnMetric() {
        Adapter a = adapter("benchmark: b\nadapter: reference\n");
        Map<String, String> sweep = Map.of("find_max_batch", "true", "memory_limit_mb", "512");
        assertThat(a.command("py", SCRIPTS, sweep, 1)).contains("--find-max-batch", "--memory-limit-mb", "512");
        assertThat(a.requiredMetric(sweep)).contains("max_batch_size");
        assertThat(a.requiredMetric(Map.of())).contains("train_samples_per_second");
    }

    @Test
    void badReferenceParametersNameTheParameter() {
        Adapter a = adapter("benchmark: b\nadapter: reference\n");
        assertThatThrownBy(() -> a.check(Map.of("dataloader", "gpu")))
                .isInstanceOf(JobSpecException.class)
                .hasMessageContaining("parameters.dataloader: must be 'cpu' or 'device', was 'gpu'");
        assertThatThrownBy(() -> a.check(Map.of("nproc", "0"))).hasMessageContaining("parameters.nproc");
        assertThatThrownBy(() -> a.check(Map.of("nproc", "two"))).hasMessageContaining("parameters.nproc");
        assertThatThrownBy(() -> a.check(Map.of("task", "image"))).hasMessageContaining("unknown to the reference");
    }

    @Test
    void compiledNamesTheCompilerTheInstalledTorchHas() {
        Adapter a = adapter("benchmark: b\nadapter: inference\n");
        Map<String, String> point = Map.of("task", "classify", "compiler", "compiled");
        assertThat(a.keyed(point, torch("1.13.0a0"))).containsEntry("compiler", "torchscript-freeze");
        assertThat(a.keyed(point, torch("2.4.1+cu121"))).containsEntry("compiler", "torch.compile");
        assertThat(a.keyed(Map.of("task", "text", "compiler", "eager"), torch("2.4.1")))
                .containsEntry("compiler", "eager");
        assertThat(a.command("py", SCRIPTS, point, 3)).contains("--compiler", "compiled", "--warmup-requests", "3");
    }

    @Test
    void inferenceMeasuresForAtLeastTheShortestCountedRepetitionAndCapsItsRequests() {
        Adapter a = adapter("benchmark: b\nadapter: inference\n");
        assertThat(a.command("py", SCRIPTS, Map.of("task", "classify"), 3)).containsSubsequence("--min-seconds", "2.0");
        a.check(Map.of("task", "classify", "requests", "1500"));
        assertThatThrownBy(() -> a.check(Map.of("task", "classify", "requests", "1501")))
                .hasMessageContaining("parameters.requests")
                .hasMessageContaining("1500 or fewer");
    }

    @Test
    void aWorkloadThatRanAnotherCompilerContradictsItsKey() {
        Adapter a = adapter("benchmark: b\nadapter: inference\n");
        Map<String, String> keyed = Map.of("task", "classify", "compiler", "torchscript-freeze");
        assertThat(a.contradiction(keyed, parsed("torchscript-freeze (torch 1.13.0a0)")))
                .isEmpty();
        assertThat(a.contradiction(keyed, parsed("eager"))).get().asString().contains("'eager'");
        assertThat(a.contradiction(keyed, parsed(null))).isPresent();
    }

    @Test
    void badInferenceParametersNameTheParameter() {
        Adapter a = adapter("benchmark: b\nadapter: inference\n");
        assertThatThrownBy(() -> a.check(Map.of())).hasMessageContaining("parameters.task: must be one of");
        assertThatThrownBy(() -> a.check(Map.of("task", "video"))).hasMessageContaining("was 'video'");
        assertThatThrownBy(() -> a.check(Map.of("task", "text", "compiler", "tensorrt")))
                .hasMessageContaining("parameters.compiler");
        assertThatThrownBy(() -> a.check(Map.of("task", "text", "output_len", "-1")))
                .hasMessageContaining("parameters.output_len");
        assertThatThrownBy(() -> a.check(Map.of("task", "text", "nproc", "2")))
                .hasMessageContaining("unknown to the inference");
    }

    @Test
    void aCommandTakesItsTemplateAndAnyParameter() {
        Adapter a = adapter("benchmark: b\nadapter: command\ncommand: run --bs {batch_size}\n");
        a.check(Map.of("anything", "x"));
        assertThat(a.command("py", null, Map.of("batch_size", "4"), 0)).containsExactly("run", "--bs", "4");
        assertThat(a.shipped()).isFalse();
        assertThat(a.requiredMetric(Map.of())).isEmpty();
    }

    private static Software torch(String version) {
        return new Software("PyTorch", version, "3.11", Map.of(), null, null);
    }

    private static dev.podium.agent.parse.ParseResult parsed(String compiler) {
        return new dev.podium.agent.parse.ParseResult(
                "jsonl", List.of(), List.of(), compiler == null ? Map.of() : Map.of("compiler", compiler), List.of());
    }
}
