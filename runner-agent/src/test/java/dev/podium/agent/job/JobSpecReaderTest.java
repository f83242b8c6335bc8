package dev.podium.agent.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.podium.events.model.Adaptive;
import dev.podium.events.validate.Violation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
                        "adapter: must be one of [command, inference, mamf, reference], was 'shell'"),
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
                args("benchmark: [1, 2]", "benchmark: must be a string"),
                args("benchmark: b\nmatrix: [1]", "matrix: must be a mapping"),
                args("benchmark: b\nwarmup: excluded-by-tool", "warmup: only for adapter 'command'"),
                args(
                        "benchmark: b\nadapter: command\ncommand: run\nwarmup: trust-me",
                        "warmup: must be 'excluded-by-tool' or 'from-step-log'"),
                args(
                        "benchmark: b\nadapter: command\ncommand: run\nwarmup: from-step-log",
                        "warmup_steps: must be 1 or more"),
                args("benchmark: b\nadapter: command\ncommand: run\nwarmup: [1]", "warmup: must be a string"),
                args("benchmark: ' '", "benchmark: must start with a letter"),
                args("benchmark: b\nversion: ''", "version: must not be blank"));
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
    void everyProblemOfASpecIsListedAtOnceEachWithItsField() {
        JobSpecException e = catchThrowableOfType(JobSpecException.class, () -> reader.read("""
                benchmark: 9lives
                adapter: command
                repetitions: 0
                timeout_seconds: "60"
                colour: red
                parameters: {batch_size: [8], 'bad name': 1}
                matrix: {workers: [0, 0], precision: fp32}
                environment: {'A B': x}
                regex: {t: {pattern: '(unclosed'}, u: {pattern: x, direction: up}}
                """));
        assertThat(e.violations())
                .extracting(Violation::field)
                .containsExactly(
                        "colour",
                        "benchmark",
                        "command",
                        "parameters.bad name",
                        "parameters.batch_size",
                        "matrix.precision",
                        "matrix.workers",
                        "repetitions",
                        "timeout_seconds",
                        "environment.A B",
                        "regex.t.pattern",
                        "regex.u.pattern",
                        "regex.u.direction");
        assertThat(e.getMessage().lines())
                .hasSize(13)
                .contains(
                        "benchmark: must start with a letter and use letters, digits, '_', '.', '-' (at most 64)",
                        "command: required when adapter is 'command'",
                        "parameters.batch_size: must be a string",
                        "matrix.precision: must be a list",
                        "matrix.workers: lists '0' twice",
                        "repetitions: must be between 1 and 100, was 0",
                        "timeout_seconds: must be a whole number",
                        "regex.u.pattern: needs a capturing group (named 'value' or the first group) for the number",
                        "regex.u.direction: must be 'higher' or 'lower'")
                .anySatisfy(l ->
                        assertThat(l).startsWith("colour: unknown field (known: adapter, adaptive, benchmark, command"))
                .anySatisfy(
                        l -> assertThat(l).startsWith("regex.t.pattern: invalid regular expression: Unclosed group"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "benchmark: b\nparameters: [1, 2]|parameters: must be a mapping",
                "benchmark: b\nmatrix: {w: {a: 1}}|matrix.w: must be a list",
                "benchmark: b\nenvironment: [A]|environment: must be a mapping",
                "benchmark: b\nrepetitions: '3'|repetitions: must be a whole number",
                "benchmark: b\nrepetitions: 2.5|repetitions: must be a whole number",
                "benchmark: b\nnodes: 99999999999|nodes: is out of range",
                "benchmark: b\nadapter: command\ncommand: {run: x}|command: must be a string or a list of arguments",
                "benchmark: b\nadapter: command\ncommand: [run, [x]]|command: list items must be strings",
                "benchmark: b\nadapter: command\ncommand: ''|command: must not be empty",
                "benchmark: b\nregex: {t: 5}|regex.t: must be a mapping",
                "benchmark: b\nparameters: {a: ~}|parameters.a: must be a single value",
                "{benchmark: b, parameters: {a: {b: 1}}}|parameters.a: must be a string"
            })
    void wrongTypesAreNamedByTheirField(String yamlAndMessage) {
        String[] parts = yamlAndMessage.split("\\|");
        assertThatThrownBy(() -> reader.read(parts[0]))
                .isInstanceOf(JobSpecException.class)
                .hasMessageContaining(parts[1]);
    }

    @Test
    void anAdaptiveBlockIsReadBesideTheRepetitionsItLeavesAsTheMinimum() {
        JobDefinition def = reader.read("""
                benchmark: b
                repetitions: 5
                adaptive: {max: 12, target_half_width_pct: 2.5, metric: train_samples_per_second}
                """);
        assertThat(def.spec().repetitions()).isEqualTo(5);
        assertThat(def.spec().adaptive()).isEqualTo(new Adaptive(12, 2.5, "train_samples_per_second"));
        assertThat(reader.read("benchmark: b").spec().adaptive()).isNull();
        assertThat(reader.read("benchmark: b\nadaptive: {max: 3, target_half_width_pct: 50}")
                        .spec()
                        .adaptive())
                .isEqualTo(new Adaptive(3, 50, null));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "adaptive: {max: 1000000000, target_half_width_pct: 2}|adaptive.max: must be between 3 and 50, was"
                        + " 1000000000",
                "adaptive: {max: 99999999999999999999, target_half_width_pct: 2}|adaptive.max: is out of range",
                "adaptive: {max: -1, target_half_width_pct: 2}|adaptive.max: must be between 3 and 50, was -1",
                "adaptive: {max: 2, target_half_width_pct: 2}|adaptive.max: must be between 3 and 50, was 2",
                "adaptive: {max: 1e9, target_half_width_pct: 2}|adaptive.max: must be a whole number",
                "adaptive: {target_half_width_pct: 2}|adaptive.max: required",
                "adaptive: {max: 10}|adaptive.target_half_width_pct: required",
                "adaptive: {max: 10, target_half_width_pct: 0}|adaptive.target_half_width_pct: must be between 0.1"
                        + " and 50 percent",
                "adaptive: {max: 10, target_half_width_pct: .nan}|not valid YAML: Malformed numeric value '.nan'",
                "adaptive: {max: 10, target_half_width_pct: .inf}|not valid YAML: Malformed numeric value '.inf'",
                "adaptive: {max: 10, target_half_width_pct: 1e308}|adaptive.target_half_width_pct: must be between",
                "adaptive: {max: 10, target_half_width_pct: two}|adaptive.target_half_width_pct: must be a number",
                "adaptive: {max: 10, target_half_width_pct: 2, runs: 1000}|adaptive.runs: unknown field",
                "adaptive: {max: 10, target_half_width_pct: 2, metric: 'a b'}|adaptive.metric: is not a valid metric"
                        + " name",
                "adaptive: 12|adaptive: must be a mapping"
            })
    void hostileAdaptiveValuesAreRefusedByTheirField(String yamlAndMessage) {
        String[] parts = yamlAndMessage.split("\\|");
        assertThatThrownBy(() -> reader.read("benchmark: b\n" + parts[0]))
                .isInstanceOf(JobSpecException.class)
                .hasMessageContaining(parts[1]);
    }

    @Test
    void aYamlScalarIsTextWhereTextBelongs() {
        JobDefinition def = reader.read("benchmark: b\nversion: 2\nparameters: {workers: 2, fast: true, lr: 0.5}\n");
        assertThat(def.benchmarkVersion()).isEqualTo("2");
        assertThat(def.spec().parameters())
                .containsExactly(Map.entry("workers", "2"), Map.entry("fast", "true"), Map.entry("lr", "0.5"));
    }

    @Test
    void hugeStringsDeepNestingAndHugeFilesAreRefusedWithTheLimit() {
        assertThatThrownBy(() -> reader.read("benchmark: " + "b".repeat(100_000)))
                .hasMessage("benchmark: must start with a letter and use letters, digits, '_', '.', '-' (at most 64)");
        assertThatThrownBy(() -> reader.read("benchmark: b\nversion: " + "v".repeat(5000)))
                .hasMessage("version: has 5000 characters, over the limit of 1024");
        assertThatThrownBy(() -> reader.read("benchmark: b\nparameters: {a: " + "x".repeat(2000) + "}"))
                .hasMessage("parameters.a: at most 1024 characters");
        assertThatThrownBy(() -> reader.read("benchmark: b\nparameters: {a: " + "[".repeat(40) + "]".repeat(40) + "}"))
                .hasMessageStartingWith(
                        "(file): over a limit: Document nesting depth (33) exceeds the maximum allowed");
        assertThatThrownBy(() -> reader.read("benchmark: b\n#" + "x".repeat(JobSpecReader.MAX_CHARS)))
                .hasMessage("(file): has " + (14 + JobSpecReader.MAX_CHARS) + " characters, over the limit of "
                        + JobSpecReader.MAX_CHARS);
    }

    @Test
    void aMatrixOfTooManyRunsIsRefusedWithoutExpandingIt() {
        StringBuilder spec = new StringBuilder("benchmark: b\nmatrix:\n");
        for (int i = 0; i < 40; i++) {
            spec.append("  axis").append(i).append(": [a, b]\n");
        }
        assertThatThrownBy(() -> reader.read(spec.toString()))
                .hasMessage("matrix: expands to 1099511627776 runs, more than 256");
    }

    @Test
    void anAliasBombIsRefusedAtOnce() {
        StringBuilder bomb = new StringBuilder("benchmark: b\nparameters:\n  a0: &a0 [lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) {
            bomb.append("  a%d: &a%d [%s]\n"
                    .formatted(i, i, String.join(", ", Collections.nCopies(9, "*a" + (i - 1)))));
        }
        assertThatThrownBy(() -> reader.read(bomb.toString()))
                .isInstanceOf(JobSpecException.class)
                .hasMessageStartingWith("(file): not valid YAML: YAML aliases are not supported (*a0)")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200));
    }

    @Test
    void anEmptyOrCommentOnlySpecIsNotAMapping() {
        for (String empty : List.of("", "# nothing\n", "---\n")) {
            assertThatThrownBy(() -> reader.read(empty))
                    .as(empty)
                    .hasMessage("(file): must be a YAML mapping of fields such as benchmark, adapter, matrix");
        }
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
