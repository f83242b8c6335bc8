package dev.podium.events.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Metric;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every workload class that examples/measured/all-classes-gpu.sh ran on one H200 (examples/measured/h200-classes, see
 * its README): the journaled events are valid, every run completed on that device under PyTorch with CUDA, and each
 * class's run carries the dimension its claim varies, with the metric that claim is about.
 */
class MeasuredClassesTest {

    private static final Path CLASSES = Path.of("../examples/measured/h200-classes");

    /** A run as the pages see it: its key and what it completed with. */
    private record Run(ComparisonKey key, String framework, String deviceId, RunCompleted completed) {
        double mean(String metric) {
            return completed.metrics().stream()
                    .filter(m -> m.name().equals(metric))
                    .map(Metric::statistics)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + metric + " in " + key))
                    .mean();
        }

        String extra(String name) {
            return key.extra().get(name);
        }
    }

    private static Map<String, List<Run>> runsByFile;

    @BeforeAll
    static void readJournals() throws IOException {
        List<Path> files = JournaledEvents.files(CLASSES);
        assertThat(files)
                .extracting(p -> p.getFileName().toString())
                .containsExactly(
                        "batch-16-vs-32.jsonl",
                        "compiled-vs-eager.jsonl",
                        "device-pipeline.jsonl",
                        "inference-image.jsonl",
                        "inference-text.jsonl",
                        "largest-batch.jsonl",
                        "scaling.jsonl");
        runsByFile = files.stream()
                .collect(Collectors.toMap(
                        p -> p.getFileName().toString().replace(".jsonl", ""), MeasuredClassesTest::runsOf));
    }

    private static List<Run> runsOf(Path file) {
        List<Envelope> events;
        try {
            events = JournaledEvents.decodeAll(List.of(file));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertThat(events).extracting(Envelope::agentId).containsOnly("gpu-classes");
        Map<Object, RunCompleted> completed = JournaledEvents.payloads(events, RunCompleted.class).stream()
                .collect(Collectors.toMap(RunCompleted::runId, Function.identity()));
        return JournaledEvents.payloads(events, RunStarted.class).stream()
                .map(s -> new Run(
                        s.key(),
                        s.software().frameworkVersion(),
                        s.accelerators().get(0).deviceId(),
                        completed.get(s.runId())))
                .toList();
    }

    @Test
    void everyRunOfEveryClassCompletedOnTheH200WithCuda() {
        List<Run> all = runsByFile.values().stream().flatMap(List::stream).toList();
        assertThat(all).hasSize(13).allSatisfy(run -> {
            assertThat(run.completed()).as("completed: " + run.key()).isNotNull();
            assertThat(run.deviceId()).isEqualTo("nvidia-h200-sxm-141gb");
            assertThat(run.framework()).endsWith("+cu130");
            assertThat(run.key().totalAccelerators()).isEqualTo(1);
        });
    }

    @Test
    void theDevicePipelineRanOnTheGpuAndOutpacedTheCpuWorkers() {
        Map<String, Run> byPipeline = by(runsByFile.get("device-pipeline"), r -> r.extra("dataloader"));
        assertThat(byPipeline).containsOnlyKeys("cpu", "device");
        assertThat(byPipeline.get("device").mean("train_samples_per_second")
                        / byPipeline.get("cpu").mean("train_samples_per_second"))
                .isGreaterThan(1.5);
    }

    @Test
    void theCompilerThatRanIsInTheKeyBesideEager() {
        assertThat(runsByFile.get("compiled-vs-eager"))
                .extracting(r -> r.extra("compiler") + " batch " + r.key().perDeviceBatchSize())
                .containsExactlyInAnyOrder(
                        "eager batch 1", "eager batch 64", "torch.compile batch 1", "torch.compile batch 64");
        assertThat(runsByFile.get("inference-image"))
                .extracting(r -> r.extra("compiler"))
                .containsExactlyInAnyOrder("eager", "torch.compile");
        assertThat(runsByFile.get("inference-image"))
                .allSatisfy(r -> assertThat(r.mean("seconds_per_image")).isPositive());
    }

    @Test
    void textGenerationReportsTokensPerSecondAndItsLatencies() {
        Run text = runsByFile.get("inference-text").get(0);
        assertThat(text.extra("input_len")).isEqualTo("128");
        assertThat(text.extra("output_len")).isEqualTo("256");
        assertThat(text.mean("output_tokens_per_second_per_accelerator")).isPositive();
        assertThat(text.mean("ttft_ms")).isPositive();
        assertThat(text.mean("tpot_ms")).isPositive();
    }

    @Test
    void batchSizesAndTheLargestBatchAreMeasured() {
        assertThat(runsByFile.get("batch-16-vs-32"))
                .extracting(r -> r.key().perDeviceBatchSize())
                .containsExactlyInAnyOrder(16, 32);
        Run largest = runsByFile.get("largest-batch").get(0);
        // The sweep stopped at the configured cap (1024), well inside the card's memory: a floor, not the limit.
        assertThat(largest.mean("max_batch_size")).isEqualTo(1024.0);
        assertThat(largest.mean("peak_device_memory_mb")).isBetween(1_000.0, 143_771.0);
        assertThat(runsByFile.get("scaling"))
                .singleElement()
                .satisfies(r -> assertThat(r.mean("train_samples_per_second_per_accelerator"))
                        .isPositive());
    }

    private static Map<String, Run> by(List<Run> runs, Function<Run, String> dimension) {
        return runs.stream().collect(Collectors.toMap(dimension, Function.identity()));
    }
}
