package dev.podium.events.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkloadAllowlistTest {

    private static final WorkloadAllowlist BENCH_TOOLS = new WorkloadAllowlist(
            Set.of(WorkloadAllowlist.REFERENCE), List.of("/opt/bench/", "/usr/bin/nvidia-smi", "bash"));

    private static JobSpec job(String adapter, String... command) {
        return new JobSpec(
                "b",
                adapter,
                command.length == 0 ? null : Arrays.asList(command),
                null,
                Map.of(),
                Map.of(),
                1,
                0,
                60,
                Map.of(),
                1,
                1,
                "gpu");
    }

    @Test
    void theDefaultRunsTheShippedWorkloadsAndNoCommand() {
        assertThat(WorkloadAllowlist.DEFAULT.refusal("gpu", job("reference"))).isEmpty();
        assertThat(WorkloadAllowlist.DEFAULT.refusal("gpu", job("inference"))).isEmpty();
        assertThat(WorkloadAllowlist.DEFAULT.refusal("gpu", job("mamf"))).isEmpty();
        assertThat(WorkloadAllowlist.DEFAULT.refusal("gpu", job("command", "/bin/sh", "-c", "id")))
                .hasValue("pool gpu allows no command jobs, so not '/bin/sh' (allowed: adapters [inference, mamf,"
                        + " reference],"
                        + " no commands)");
    }

    @Test
    void anAdapterNotListedIsRefusedNamingThePool() {
        assertThat(BENCH_TOOLS.refusal("gpu-a", job("inference")))
                .hasValue("pool gpu-a does not allow adapter 'inference' (allowed: adapters [reference], commands"
                        + " [/opt/bench/, /usr/bin/nvidia-smi, bash])");
        assertThat(BENCH_TOOLS.refusal("gpu-a", job(null))).get().asString().contains("adapter ''");
    }

    @Test
    void aCommandUnderAnAllowedDirectoryOrEqualToAnEntryRuns() {
        assertThat(BENCH_TOOLS.refusal("gpu", job("command", "/opt/bench/run.sh", "--steps", "10")))
                .isEmpty();
        assertThat(BENCH_TOOLS.refusal("gpu", job("command", "/opt/bench/tools/x")))
                .isEmpty();
        assertThat(BENCH_TOOLS.refusal("gpu", job("command", "/usr/bin/nvidia-smi")))
                .isEmpty();
        assertThat(BENCH_TOOLS.refusal("gpu", job("command", "bash", "-c", "echo")))
                .isEmpty();
        assertThat(BENCH_TOOLS.refusal("gpu", job(" command ", "bash"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/opt/bench/../../bin/sh",
                "/opt/bench/./run.sh",
                "/opt/bench//run.sh",
                "/opt/bench/",
                "/opt/benchmarks/run.sh",
                "/opt/bench",
                "opt/bench/run.sh",
                "/usr/bin/nvidia-smi2",
                "/usr/bin/bash",
                "/bin/bash",
                "bash ",
                "BASH",
                "/opt/bench/run\0.sh",
                "/opt/bench/{tool}",
                "{tool}",
                ""
            })
    void anExecutableOutsideTheListIsRefused(String executable) {
        assertThat(BENCH_TOOLS.refusal("gpu", job("command", executable, "-c", "id")))
                .get()
                .asString()
                .contains("pool gpu");
    }

    @Test
    void aCommandJobWithoutAnExecutableIsRefused() {
        assertThat(BENCH_TOOLS.refusal("gpu", job("command")))
                .hasValue("a command job for pool gpu names no executable");
    }
}
