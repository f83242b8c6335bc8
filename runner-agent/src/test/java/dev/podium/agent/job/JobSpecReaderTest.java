package dev.podium.agent.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

class JobSpecReaderTest {

    private final JobSpecReader reader = new JobSpecReader();

    @Test
    void theShippedExamplesAreValid() throws Exception {
        for (String name : List.of("reference-workers-sweep.yaml", "hf-trainer-command.yaml")) {
            Path p = Path.of("..", "examples", "jobs", name);
            JobDefinition def = reader.read(Files.readString(p));
            assertThat(def.points()).hasSize(3);
        }
    }

    @Test
    void everyWorkloadClassSpecIsValidForItsAdapter() throws Exception {
        List<Path> specs = new java.util.ArrayList<>();
        for (String dir : List.of("jobs", "measured/gpu-classes")) {
            try (var files = Files.list(Path.of("..", "examples", dir))) {
                files.filter(f -> f.toString().endsWith(".yaml")).forEach(specs::add);
            }
        }
        assertThat(specs).hasSizeGreaterThanOrEqualTo(16);
        for (Path p : specs) {
            JobDefinition def = reader.read(Files.readString(p));
            dev.podium.agent.workload.Adapter adapter = dev.podium.agent.workload.Adapter.of(def.spec());
            def.points().forEach(adapter::check);
        }
    }

    @Test
    void theMatrixExpandsOverTheFixedParameters() {
        JobDefinition def = reader.read("""
                benchmark: b
                parameters: {batch_size: 8}
                matrix:
                  dataloader_num_workers: [0, 1]
                  precision: [fp32, bf16]
                """);
        assertThat(def.points()).hasSize(4).allSatisfy(p -> assertThat(p).containsEntry("batch_size", "8"));
        assertThat(def.points().get(3))
                .containsEntry("dataloader_num_workers", "1")
                .containsEntry("precision", "bf16");
        assertThat(def.spec().repetitions()).isEqualTo(3);
        assertThat(def.spec().parser()).isEqualTo("jsonl");
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> badSpecs() {
        return java.util.stream.Stream.of(
                args("adapter: reference", "benchmark: required"),
                args("benchmark: b\nrepetitions: 0", "repetitions: must be between 1 and 100, was 0"),
                args("benchmark: b\nrepetitions: three", "repetitions: must be a whole number"),
                args(
                        "benchmark: b\nadapter: shell",
                        "adapter: must be one of [command, inference, reference], was 'shell'"),
                args("benchmark: b\nadapter: inference\ncommand: run", "command: not allowed with adapter 'inference'"),
                args("benchmark: b\nadapter: command", "command: required when adapter is 'command'"),
                args("benchmark: b\nmatrix: {w: []}", "matrix.w: must be a non-empty list"),
                args("benchmark: b\nmatrix: {w: [1, 1]}", "matrix.w: lists '1' twice"),
                args("benchmark: b\ntimout_seconds: 5", "timout_seconds: unknown field"),
                args("benchmark: b\nparser: xml", "parser: unknown format 'xml'"),
                args(
                        "benchmark: b\nenvironment: {'A B': x}",
                        "environment.A B: is not a valid environment variable name"),
                args(
                        "benchmark: b\nadapter: command\ncommand: run\nregex: {t: {pattern: '(unclosed'}}",
                        "regex.t.pattern: invalid regular expression"),
                args("benchmark: b\nadapter: command\ncommand: 'a \"b'", "command: unbalanced quote"),
                args("'just a string'", "(file): must be a YAML mapping"),
                args("benchmark: [1, 2]", "benchmark: must be a non-empty string"),
                args("benchmark: b\nmatrix: [1]", "matrix: must map parameter names"),
                args("benchmark: b\nwarmup: excluded-by-tool", "warmup: only for adapter 'command'"),
                args(
                        "benchmark: b\nadapter: command\ncommand: run\nwarmup: trust-me",
                        "warmup: must be 'excluded-by-tool' or 'from-step-log'"),
                args(
                        "benchmark: b\nadapter: command\ncommand: run\nwarmup: from-step-log",
                        "warmup_steps: must be 1 or more"),
                args(
                        "benchmark: b\nadapter: command\ncommand: run\nwarmup: [1]",
                        "warmup: must be a non-empty string"));
    }

    private static org.junit.jupiter.params.provider.Arguments args(String yaml, String message) {
        return org.junit.jupiter.params.provider.Arguments.of(yaml, message);
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("badSpecs")
    void badSpecsNameTheFieldAndTheProblem(String yaml, String message) {
        assertThatThrownBy(() -> reader.read(yaml))
                .isInstanceOf(JobSpecException.class)
                .hasMessageContaining(message);
    }

    @Test
    void commandPlaceholdersAreFilledAndUnknownOnesNamed() {
        assertThat(CommandLine.fill(
                        CommandLine.split("python 'my script.py' --bs {batch_size}"), Map.of("batch_size", "8")))
                .containsExactly("python", "my script.py", "--bs", "8");
        assertThatThrownBy(() -> CommandLine.fill(List.of("--x", "{nope}"), Map.of()))
                .hasMessageContaining("placeholder {nope} names no parameter");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"auto", "vllm-serving", "sglang-serving", "genai-perf", "hf-trainer"})
    void harnessFormatsAndAWarmupDeclarationAreAccepted(String parser) {
        JobDefinition def = reader.read("benchmark: b\nadapter: command\ncommand: run\nparser: " + parser
                + "\nwarmup: from-step-log\nwarmup_steps: 3\n");
        assertThat(def.spec().parser()).isEqualTo(parser);
        assertThat(def.spec().warmup()).isEqualTo("from-step-log");
        assertThat(reader.read("benchmark: b\nadapter: command\ncommand: run\n")
                        .spec()
                        .parser())
                .isEqualTo("auto");
        assertThat(reader.read("benchmark: b\nadapter: command\ncommand: run\n")
                        .spec()
                        .warmup())
                .isNull();
    }
}
