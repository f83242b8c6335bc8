package dev.podium.agent.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.job.JobRunner;
import dev.podium.agent.job.JobSpecReader;
import dev.podium.agent.job.Progress;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.agent.publish.EventSink;
import dev.podium.events.Envelope;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.Direction;
import dev.podium.events.model.Metric;
import dev.podium.events.model.WorkPerUnit;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunStarted;
import dev.podium.events.sign.EventSigner;
import dev.podium.events.validate.ValueChecks;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped workloads really run (Debian's CPU PyTorch) through the job runner, and their keys say what varied. */
class ShippedWorkloadsTest {

    @TempDir
    Path dir;

    private Journal journal;
    private JobRunner runner;

    @BeforeEach
    void setUp() {
        journal = new Journal(dir.resolve("journal"), 50_000_000);
        EventSink sink = new EventSink(
                journal, "unit-agent", "k1", EventSigner.secretBytes(EventSigner.newSecret()), Clock.systemUTC());
        Fingerprint fp = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(), null, List.of());
        runner = new JobRunner(
                sink, fp, dir.resolve("work"), "/usr/bin/python3", Progress.silent(), new ToolRunner(), 200);
    }

    private List<Envelope> events() {
        EventCodec codec = new EventCodec();
        return journal.pending().stream()
                .map(JournalEntry::value)
                .map(codec::decode)
                .map(d -> ((Decoded.Accepted) d).envelope())
                .toList();
    }

    private <T> List<T> payloads(Class<T> type) {
        return events().stream()
                .map(Envelope::payload)
                .filter(type::isInstance)
                .map(type::cast)
                .toList();
    }

    @Test
    void theDevicePipelineOnAHostWithoutOneFailsAsUnsupportedAndRecordsNoResult() {
        runner.run(new JobSpecReader().read("""
                benchmark: podium-reference
                adapter: reference
                parameters: {size: tiny, batch_size: 4, steps: 2, device: cpu, threads: 1}
                matrix: {dataloader: [device]}
                repetitions: 1
                warmup_steps: 1
                """));
        assertThat(payloads(RunStarted.class))
                .singleElement()
                .satisfies(s -> assertThat(s.key().extra()).containsEntry("dataloader", "device"));
        assertThat(payloads(RunCompleted.class)).isEmpty();
        assertThat(payloads(RunFailed.class)).singleElement().satisfies(f -> {
            assertThat(f.phase()).isEqualTo("unsupported");
            assertThat(f.reason()).contains("not measured").contains("no device-side JPEG pipeline on cpu");
        });
    }

    @Test
    void twoProcessesTrainThroughTorchrunAndReportPerAcceleratorThroughput() {
        runner.run(new JobSpecReader().read("""
                benchmark: podium-reference
                adapter: reference
                parameters: {size: tiny, batch_size: 4, steps: 3, device: cpu, threads: 1}
                matrix: {nproc: [2]}
                repetitions: 1
                warmup_steps: 1
                """));
        assertThat(payloads(RunStarted.class))
                .singleElement()
                .satisfies(s -> assertThat(s.key().totalAccelerators()).isEqualTo(2));
        RunCompleted done = payloads(RunCompleted.class).get(0);
        double system = metric(done, "train_samples_per_second").statistics().mean();
        double each = metric(done, "train_samples_per_second_per_accelerator")
                .statistics()
                .mean();
        assertThat(each).isCloseTo(system / 2, org.assertj.core.data.Offset.offset(system * 0.01));
    }

    @Test
    void compiledClassificationNamesTheCompilerThatRanInItsKey() {
        runner.run(new JobSpecReader().read("""
                benchmark: podium-inference
                adapter: inference
                parameters: {task: classify, batch_size: 2, image_size: 32, requests: 3, device: cpu, threads: 1}
                matrix: {compiler: [eager, compiled]}
                repetitions: 1
                warmup_steps: 2
                """));
        assertThat(payloads(RunStarted.class))
                .extracting(s -> s.key().extra().get("compiler"))
                .containsExactly("eager", "torchscript-freeze");
        assertThat(payloads(RunCompleted.class)).hasSize(2).allSatisfy(done -> {
            assertThat(metric(done, "inference_samples_per_second").statistics().mean())
                    .isPositive();
            assertThat(metric(done, "latency_ms").direction()).isEqualTo(Direction.LOWER_IS_BETTER);
            // three requests take milliseconds: more are measured until the repetition is long enough to count
            assertThat(done.validity())
                    .filteredOn(c -> c.name().equals(ValueChecks.MIN_DURATION))
                    .singleElement()
                    .satisfies(c -> assertThat(c.passed()).isTrue());
        });
    }

    @Test
    void textGenerationReportsTokenRatesAndLatenciesLowerIsBetter() {
        runner.run(new JobSpecReader().read("""
                benchmark: podium-inference
                adapter: inference
                parameters: {task: text, input_len: 16, output_len: 8, batch_size: 2, requests: 3, device: cpu, threads: 1}
                repetitions: 1
                warmup_steps: 1
                """));
        assertThat(payloads(RunStarted.class))
                .singleElement()
                .satisfies(s -> assertThat(s.key().extra())
                        .containsEntry("input_len", "16")
                        .containsEntry("output_len", "8"));
        RunCompleted done = payloads(RunCompleted.class).get(0);
        assertThat(metric(done, "output_tokens_per_second").direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        assertThat(metric(done, "ttft_ms").direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(metric(done, "tpot_ms").direction()).isEqualTo(Direction.LOWER_IS_BETTER);
        assertThat(metric(done, "output_tokens_per_second").work()).satisfies(w -> {
            assertThat(w.basis()).isEqualTo(WorkPerUnit.Basis.COMPUTED);
            assertThat(w.flops()).isPositive();
            assertThat(w.bytes()).isPositive();
        });
        assertThat(done.metrics()).extracting(Metric::name).doesNotContain("train_samples_per_second");
    }

    @Test
    void matmulSweepOnTheCpuReportsItsBestRatePerAcceleratorWithAnInterval() {
        runner.run(new JobSpecReader().read("""
                benchmark: podium-mamf
                adapter: mamf
                parameters: {precision: fp32, device: cpu, threads: 1, iterations: 3}
                repetitions: 2
                warmup_steps: 1
                """));
        assertThat(payloads(RunStarted.class))
                .singleElement()
                .satisfies(s -> assertThat(s.key().totalAccelerators()).isEqualTo(1));
        Metric rate = metric(payloads(RunCompleted.class).get(0), Matmul.METRIC);
        assertThat(rate.unit()).isEqualTo("TFLOP/s");
        assertThat(rate.direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        assertThat(rate.values()).hasSize(2).allSatisfy(v -> assertThat(v).isPositive());
        assertThat(rate.statistics().ci95Low())
                .isLessThanOrEqualTo(rate.statistics().mean());
        assertThat(rate.statistics().ci95High())
                .isGreaterThanOrEqualTo(rate.statistics().mean());
    }

    private static Metric metric(RunCompleted done, String name) {
        return done.metrics().stream()
                .filter(m -> m.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " missing from " + done.metrics()));
    }
}
