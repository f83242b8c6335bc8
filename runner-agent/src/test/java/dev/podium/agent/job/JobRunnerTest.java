package dev.podium.agent.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.agent.publish.EventSink;
import dev.podium.agent.publish.RecordTooLargeException;
import dev.podium.agent.workload.Isolation;
import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunProgress;
import dev.podium.events.sign.EventSigner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failure paths of a job: non-zero exit, timeout, no metrics, cancel, and records over the size limit. */
class JobRunnerTest {

    @TempDir
    Path dir;

    private Journal journal;
    private EventSink sink;
    private JobRunner runner;

    @BeforeEach
    void setUp() {
        journal = new Journal(dir.resolve("journal"), 10_000_000);
        sink = new EventSink(
                journal, "unit-agent", "k1", EventSigner.secretBytes(EventSigner.newSecret()), Clock.systemUTC());
        Fingerprint fp = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(), null, List.of());
        runner = new JobRunner(
                sink, fp, dir.resolve("work"), "/usr/bin/python3", Progress.silent(), new ToolRunner(), 100);
    }

    private JobDefinition job(String script, int timeout) throws Exception {
        Path sh = dir.resolve("w-" + UUID.randomUUID() + ".sh");
        Files.writeString(sh, script);
        return new JobSpecReader().read("""
                benchmark: failure-probe
                adapter: command
                command: ["sh", "%s"]
                parser: jsonl
                repetitions: 2
                timeout_seconds: %d
                """.formatted(sh, timeout));
    }

    private List<Envelope> events() {
        EventCodec codec = new EventCodec();
        return journal.pending().stream()
                .map(JournalEntry::value)
                .map(codec::decode)
                .map(d -> {
                    assertThat(d).isInstanceOf(Decoded.Accepted.class);
                    return ((Decoded.Accepted) d).envelope();
                })
                .toList();
    }

    @Test
    void nonZeroExitBecomesRunFailedWithExitCodeAndLogTail() throws Exception {
        List<RunOutcome> out = runner.run(job("echo 'CUDA out of memory' >&2\nexit 7\n", 30));
        assertThat(out).singleElement().satisfies(o -> assertThat(o.status()).isEqualTo(RunOutcome.Status.FAILED));
        assertThat(events())
                .last()
                .satisfies(e -> assertThat(e.payload()).isInstanceOfSatisfying(RunFailed.class, f -> {
                    assertThat(f.phase()).isEqualTo("measure");
                    assertThat(f.exitCode()).isEqualTo(7);
                    assertThat(f.logTail()).contains("CUDA out of memory");
                }));
    }

    @Test
    void aHugeLineOfOutputDoesNotHideTheMetricsAfterIt() throws Exception {
        // 20 MB on one line, then a metric: the line is cut at 1 MiB and the metric still counts.
        runner.run(job(
                "head -c 20000000 /dev/zero | tr '\\0' 'x'\necho\n"
                        + "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"t\", \"value\": 2.5}'\n",
                60));
        assertThat(events())
                .last()
                .satisfies(e -> assertThat(e.payload()).isInstanceOf(dev.podium.events.run.RunCompleted.class));
    }

    @Test
    void aTimeoutBecomesRunFailedInPhaseTimeout() throws Exception {
        runner.run(job("echo started\nexec sleep 3600\n", 1));
        assertThat(events())
                .last()
                .satisfies(e -> assertThat(e.payload()).isInstanceOfSatisfying(RunFailed.class, f -> {
                    assertThat(f.phase()).isEqualTo("timeout");
                    assertThat(f.reason()).contains("timeout of 1 s");
                }));
    }

    @Test
    void noMetricsFoundBecomesRunFailedInPhaseParse() throws Exception {
        runner.run(job("echo 'all good, no numbers'\n", 30));
        assertThat(events())
                .last()
                .satisfies(e -> assertThat(e.payload())
                        .isInstanceOfSatisfying(
                                RunFailed.class, f -> assertThat(f.phase()).isEqualTo("parse")));
    }

    @Test
    void parametersNamedLikeFixedKeyFieldsStayOutOfTheKeysExtraDimensions() throws Exception {
        Path sh = dir.resolve("ok.sh");
        Files.writeString(sh, "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"t\", \"value\": 1.5}'\n");
        runner.run(new JobSpecReader().read("""
                benchmark: key-probe
                adapter: command
                command: ["sh", "%s"]
                parameters: {scenario: offline, per_device_batch_size: 4, seed: 1, api_token: "tok-123456"}
                matrix: {workers: [2]}
                repetitions: 1
                """.formatted(sh)));
        dev.podium.events.run.RunStarted started =
                (dev.podium.events.run.RunStarted) events().get(0).payload();
        assertThat(started.key().extra())
                .containsOnlyKeys("workers", "api_token")
                .containsEntry("api_token", "***");
        assertThat(started.workload().parameters()).containsEntry("api_token", "***");
    }

    @Test
    void parametersNamedScenarioAndTotalAcceleratorsFillTheKeysFixedFields() throws Exception {
        Path sh = dir.resolve("ok.sh");
        Files.writeString(sh, "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"t\", \"value\": 1.5}'\n");
        runner.run(new JobSpecReader().read("""
                benchmark: key-probe
                adapter: command
                command: ["sh", "%s"]
                parameters: {scenario: server, total_accelerators: 16, per_device_batch_size: 4, input_size: 512}
                matrix: {workers: [2]}
                repetitions: 1
                """.formatted(sh)));
        dev.podium.events.run.RunStarted started =
                (dev.podium.events.run.RunStarted) events().get(0).payload();
        assertThat(started.key().scenario()).isEqualTo("server");
        assertThat(started.key().totalAccelerators()).isEqualTo(16);
        assertThat(started.key().perDeviceBatchSize()).isEqualTo(4);
        assertThat(started.key().inputSize()).isEqualTo(512);
        assertThat(started.key().extra()).containsOnlyKeys("workers");
        assertThat(started.workload().scenario()).isEqualTo("server");
        assertThat(events())
                .last()
                .satisfies(e -> assertThat(e.payload()).isInstanceOf(dev.podium.events.run.RunCompleted.class));
    }

    @Test
    void noParameterCanReachTheKeysExtraUnderTheNameOfAFixedDimension() throws Exception {
        Path sh = dir.resolve("ok.sh");
        Files.writeString(sh, "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"t\", \"value\": 1.5}'\n");
        StringBuilder params = new StringBuilder();
        for (String name : dev.podium.events.model.ComparisonKey.FIXED_DIMENSIONS) {
            params.append(params.length() == 0 ? "" : ", ").append(name).append(": 7");
        }
        List<RunOutcome> out = runner.run(new JobSpecReader().read("""
                benchmark: key-probe
                adapter: command
                command: ["sh", "%s"]
                parameters: {%s}
                repetitions: 1
                """.formatted(sh, params)));
        assertThat(out).singleElement().satisfies(o -> assertThat(o.status()).isEqualTo(RunOutcome.Status.COMPLETED));
        dev.podium.events.run.RunStarted started =
                (dev.podium.events.run.RunStarted) events().get(0).payload();
        assertThat(started.key().extra()).isEmpty();
        assertThat(started.key().benchmark()).isEqualTo("key-probe"); // a parameter never renames the benchmark
    }

    private Path stepScript(int steps) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= steps; i++) {
            sb.append("echo '{\"podium\": 1, \"type\": \"step\", \"step\": ")
                    .append(i)
                    .append(", \"warmup\": false, \"samples\": 8, \"seconds\": 0.1, \"samples_per_second\": 80.0}'\n");
        }
        sb.append(
                "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"train_samples_per_second\", \"value\": 80.0}'\n");
        Path sh = dir.resolve("steps-" + UUID.randomUUID() + ".sh");
        Files.writeString(sh, sb.toString());
        return sh;
    }

    private List<RunProgress> progressEvents() {
        return events().stream()
                .map(Envelope::payload)
                .filter(RunProgress.class::isInstance)
                .map(RunProgress.class::cast)
                .toList();
    }

    @Test
    void stepLinesOfARunningRepetitionBecomeRunProgressEveryNSteps() throws Exception {
        runner.progressEvery(3, Duration.ZERO).run(new JobSpecReader().read("""
                benchmark: progress-probe
                adapter: command
                command: ["sh", "%s"]
                repetitions: 1
                """.formatted(stepScript(10))));
        List<RunProgress> p = progressEvents();
        assertThat(p).extracting(RunProgress::step).containsExactly(0L, 3L, 6L, 9L, 10L);
        assertThat(p.get(1).message()).isEqualTo("step 3: 80.000 samples/s");
        assertThat(p).last().satisfies(x -> assertThat(x.message()).startsWith("repetition 1 done"));
    }

    @Test
    void progressDuringARepetitionIsThrottledInTime() throws Exception {
        runner.progressEvery(1, Duration.ofHours(1)).run(new JobSpecReader().read("""
                benchmark: progress-probe
                adapter: command
                command: ["sh", "%s"]
                repetitions: 2
                """.formatted(stepScript(20))));
        assertThat(progressEvents()).extracting(RunProgress::step).containsExactly(0L, 20L, 0L, 20L);
    }

    @Test
    void theSoftwareProbeAsksTheInterpreterTheJobRunsWith() throws Exception {
        Path jobPython = fakePython("3.99.1", "9.9.9");
        Path cliPython = fakePython("3.42.0", "1.0.0");
        Path sh = dir.resolve("ok.sh");
        Files.writeString(sh, "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"t\", \"value\": 1.5}'\n");
        Fingerprint fp = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(), null, List.of());
        JobRunner withCliPython = new JobRunner(
                sink, fp, dir.resolve("work"), cliPython.toString(), Progress.silent(), new ToolRunner(), 100);
        withCliPython.run(new JobSpecReader().read("""
                benchmark: probe
                adapter: command
                command: ["sh", "%s"]
                parameters: {python: "%s"}
                matrix: {workers: [1]}
                repetitions: 1
                """.formatted(sh, jobPython)));
        withCliPython.run(new JobSpecReader().read("""
                benchmark: probe
                adapter: command
                command: ["sh", "%s"]
                repetitions: 1
                """.formatted(sh)));
        List<dev.podium.events.run.RunStarted> started = events().stream()
                .map(Envelope::payload)
                .filter(dev.podium.events.run.RunStarted.class::isInstance)
                .map(dev.podium.events.run.RunStarted.class::cast)
                .toList();
        assertThat(started).hasSize(2);
        assertThat(started.get(0).software().pythonVersion()).isEqualTo("3.99.1");
        assertThat(started.get(0).software().frameworkVersion()).isEqualTo("9.9.9");
        assertThat(started.get(1).software().pythonVersion()).isEqualTo("3.42.0");
    }

    /** An interpreter that answers the probe the way a real one with that Python and torch would. */
    private Path fakePython(String python, String torch) throws Exception {
        Path p = dir.resolve("python-" + python);
        Files.writeString(
                p,
                "#!/bin/sh\necho '{\"python\": \"" + python + "\", \"libraries\": {\"torch\": \"" + torch + "\"}}'\n");
        p.toFile().setExecutable(true);
        return p;
    }

    @Test
    void aRunningJobCanBeCancelled() throws Exception {
        JobDefinition job = job("echo started\nexec sleep 3600\n", 3600);
        CompletableFuture<List<RunOutcome>> running = CompletableFuture.supplyAsync(() -> runner.run(job));
        await().atMost(Duration.ofSeconds(60))
                .until(() -> events().stream().anyMatch(e -> e.payload() instanceof RunProgress));
        runner.cancel();
        List<RunOutcome> out = running.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(out).singleElement().satisfies(o -> assertThat(o.status()).isEqualTo(RunOutcome.Status.CANCELLED));
        assertThat(events()).last().satisfies(e -> assertThat(e.payload()).isInstanceOf(RunCancelled.class));
    }

    @Test
    void fp16OnCpuWithTorch113FailsWithAClearMessage() throws Exception {
        JobDefinition job = new JobSpecReader().read("""
                benchmark: podium-reference
                parameters: {size: tiny, precision: fp16, device: cpu, steps: 2}
                repetitions: 1
                """);
        runner.run(job);
        assertThat(events())
                .last()
                .satisfies(e -> assertThat(e.payload()).isInstanceOfSatisfying(RunFailed.class, f -> {
                    assertThat(f.exitCode()).isEqualTo(2);
                    assertThat(f.logTail()).contains("fp16 is not supported by CPU autocast");
                }));
    }

    @Test
    void anUnknownReferenceParameterIsRejectedBeforeAnythingRuns() {
        assertThatThrownBy(() -> runner.run(new JobSpecReader().read("benchmark: b\nparameters: {batchsize: 8}\n")))
                .hasMessageContaining("parameters.batchsize");
        assertThat(journal.pendingCount()).isZero();
    }

    @Test
    void aCommandJobIsRefusedBeforeAnythingRunsWhereWorkloadsCannotBeIsolated() throws Exception {
        Path ran = dir.resolve("ran");
        runner.isolatedBy(new Isolation(
                Isolation.Kind.NONE,
                dir.resolve("work"),
                Optional.empty(),
                false,
                List.of(),
                "user namespaces are not available here"));
        assertThatThrownBy(() -> runner.run(job("touch '" + ran + "'\n", 30)))
                .isInstanceOf(JobSpecException.class)
                .hasMessageContaining("adapter")
                .hasMessageContaining(
                        "only isolated from its secrets, and cannot here: user namespaces are not available");
        assertThat(ran).doesNotExist();
        assertThat(journal.pendingCount()).isZero();
    }

    @Test
    void aRecordOverTheLimitIsNeverJournaled() {
        EventSink.StreamWriter w = sink.stream(StreamId.run(UUID.randomUUID()));
        String huge = "x".repeat(16_000);
        List<dev.podium.events.model.ValidityCheck> checks = java.util.stream.IntStream.range(0, 80)
                .mapToObj(i -> new dev.podium.events.model.ValidityCheck("c" + i, true, huge))
                .toList();
        assertThatThrownBy(
                        () -> w.emit(new dev.podium.events.run.RunCompleted(UUID.randomUUID(), List.of(), checks, 1.0)))
                .isInstanceOf(RecordTooLargeException.class)
                .hasMessageContaining("over the limit");
        assertThat(journal.pendingCount()).isZero();
    }

    /** A tool's own output: an HF Trainer block whose throughput includes a slow warm-up, after per-step protocol lines. */
    private Path toolWithStepLog(boolean withSteps) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; withSteps && i <= 6; i++) {
            double seconds = i <= 2 ? 2.0 : 0.1; // two slow warm-up steps the tool does not flag
            sb.append("echo '{\"podium\": 1, \"type\": \"step\", \"step\": ")
                    .append(i)
                    .append(", \"samples\": 8, \"seconds\": ")
                    .append(seconds)
                    .append("}'\n");
        }
        sb.append("echo '***** train metrics *****'\n");
        sb.append("echo '  max_memory_allocated (GB) =  38.2'\n");
        sb.append("echo '  train_samples_per_second  =  5.5'\n");
        Path sh = dir.resolve("tool-" + UUID.randomUUID() + ".sh");
        Files.writeString(sh, sb.toString());
        return sh;
    }

    private void runVerified(int repetitions, boolean withSteps) throws Exception {
        runner.run(new JobSpecReader().read("""
                benchmark: warmup-probe
                adapter: command
                command: ["sh", "%s"]
                parser: hf-trainer
                warmup: from-step-log
                warmup_steps: 2
                repetitions: %d
                """.formatted(toolWithStepLog(withSteps), repetitions)));
    }

    private RunCompleted completed() {
        return events().stream()
                .map(Envelope::payload)
                .filter(RunCompleted.class::isInstance)
                .map(RunCompleted.class::cast)
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    private static ValidityCheck warmupCheck(RunCompleted rc) {
        return rc.validity().stream()
                .filter(c -> c.name().equals("warmup_excluded"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aCommandRunWithoutAWarmupDeclarationFailsTheWarmupCheckSoItStaysOffLeaderboards() throws Exception {
        runner.run(new JobSpecReader().read("""
                benchmark: warmup-probe
                adapter: command
                command: ["sh", "%s"]
                parser: hf-trainer
                repetitions: 1
                """.formatted(toolWithStepLog(false))));
        assertThat(warmupCheck(completed()).passed()).isFalse();
        assertThat(completed().metrics())
                .allSatisfy(m -> assertThat(m.warmupExcluded()).isFalse());
    }

    @Test
    void aDeclaredWarmupPassesTheCheckAndIsShownAsDeclared() throws Exception {
        runner.run(new JobSpecReader().read("""
                benchmark: warmup-probe
                adapter: command
                command: ["sh", "%s"]
                parser: hf-trainer
                warmup: excluded-by-tool
                repetitions: 1
                """.formatted(toolWithStepLog(false))));
        RunCompleted rc = completed();
        assertThat(warmupCheck(rc).passed()).isTrue();
        assertThat(warmupCheck(rc).detail()).startsWith("declared:");
        assertThat(rc.metrics())
                .filteredOn(m -> m.name().equals("train_samples_per_second"))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.values()).containsExactly(5.5);
                    assertThat(m.warmupExcluded()).isTrue();
                });
    }

    @Test
    void aVerifiedWarmupComputesTheThroughputFromTheStepLogAfterTheWarmupSteps() throws Exception {
        runVerified(2, true);
        RunCompleted rc = completed();
        assertThat(warmupCheck(rc).passed()).isTrue();
        assertThat(warmupCheck(rc).detail())
                .startsWith("verified:")
                .contains("first 2 steps")
                .contains("8 measured steps");
        assertThat(rc.metrics())
                .filteredOn(m -> m.name().equals("train_samples_per_second"))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.values())
                            .allSatisfy(v -> assertThat(v).isCloseTo(80.0, org.assertj.core.data.Offset.offset(1e-6)));
                    assertThat(m.warmupExcluded()).isTrue();
                    assertThat(m.percentiles().n()).isEqualTo(8);
                });
        assertThat(rc.metrics())
                .filteredOn(m -> m.name().equals("step_time_p99_ms"))
                .singleElement()
                .satisfies(m -> assertThat(m.direction()).isEqualTo(dev.podium.events.model.Direction.LOWER_IS_BETTER));
        assertThat(rc.metrics()).anySatisfy(m -> assertThat(m.name()).isEqualTo("max_memory_allocated"));
    }

    @Test
    void aVerifiedWarmupWithoutAStepLogFailsTheCheckAndSaysWhy() throws Exception {
        runVerified(1, false);
        ValidityCheck c = warmupCheck(completed());
        assertThat(c.passed()).isFalse();
        assertThat(c.detail()).startsWith("verified: not possible").contains("0 steps");
    }

    @Test
    void aVerifiedWarmupWithNoStepsToLeaveOutIsNotVerified() throws Exception {
        // As a spec from podium.jobs may come, without JobSpecReader's check of warmup_steps.
        JobDefinition def = new JobSpecReader().read("""
                benchmark: warmup-probe
                adapter: command
                command: ["sh", "%s"]
                parser: hf-trainer
                repetitions: 1
                """.formatted(toolWithStepLog(true)));
        dev.podium.events.model.JobSpec s = def.spec();
        runner.run(new JobDefinition(
                new dev.podium.events.model.JobSpec(
                        s.benchmark(),
                        s.adapter(),
                        s.command(),
                        s.parser(),
                        s.parameters(),
                        s.matrix(),
                        s.repetitions(),
                        0,
                        s.timeoutSeconds(),
                        s.environment(),
                        s.nodes(),
                        s.devicesPerNode(),
                        s.pool(),
                        "from-step-log"),
                null,
                null,
                null,
                List.of()));
        ValidityCheck c = warmupCheck(completed());
        assertThat(c.passed()).isFalse();
        assertThat(c.detail()).contains("warmup_steps is 0");
    }

    @Test
    void aReferenceJobNamingAnInterpreterIsRefusedWithAClearError() throws Exception {
        Path marker = dir.resolve("interpreter-ran");
        Path fake = dir.resolve("fake-python.sh");
        Files.writeString(fake, "#!/bin/sh\ntouch " + marker + "\n");
        fake.toFile().setExecutable(true);
        JobDefinition job = new JobSpecReader().read("""
                benchmark: reference-probe
                adapter: reference
                parameters: {python: "%s", steps: 2}
                repetitions: 1
                """.formatted(fake));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> runner.run(job))
                .isInstanceOf(JobSpecException.class)
                .hasMessageContaining("parameters.python")
                .hasMessageContaining("a job cannot choose the reference workload's interpreter");
        assertThat(marker).doesNotExist();
        assertThat(events()).isEmpty();
    }
}
