package dev.podium.events.examples;

import static dev.podium.events.examples.JournaledEvents.payloads;
import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.Envelope;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The events the agent journaled on a real H200 (examples/measured/h200, see its README) are what ingest accepts: every
 * line decodes and validates, every run that started completed, with the validity checks that held or failed on that machine, and the sweep shows
 * what the study it imitates shows, throughput rising with dataloader workers.
 */
class MeasuredExamplesTest {

    private static final Path H200 = Path.of("../examples/measured/h200");

    @Test
    void everyJournaledEventDecodesAndValidates() throws IOException {
        List<Envelope> events = events();
        assertThat(events).hasSizeGreaterThan(100);
        assertThat(events).extracting(Envelope::agentId).containsOnly("h200-device");
    }

    @Test
    void everyRunCompletedOnTheH200AndOnlyTheNoisyOnesFailACheck() throws IOException {
        List<Envelope> events = events();
        List<RunStarted> started = payloads(events, RunStarted.class);
        List<RunCompleted> completed = payloads(events, RunCompleted.class);
        assertThat(started).hasSize(7);
        assertThat(completed)
                .extracting(RunCompleted::runId)
                .containsExactlyInAnyOrderElementsOf(
                        started.stream().map(RunStarted::runId).toList());
        assertThat(started)
                .allSatisfy(s -> assertThat(s.accelerators())
                        .singleElement()
                        .satisfies(a -> assertThat(a.deviceId()).isEqualTo("nvidia-h200-sxm-141gb")));
        // Two runs were noisy on that machine (cv 23.6% at one worker, 10.6% at two): the agent says so, truthfully.
        Map<String, List<String>> failedChecksByPoint = new TreeMap<>();
        for (RunStarted s : started) {
            RunCompleted c = completed.stream()
                    .filter(r -> r.runId().equals(s.runId()))
                    .findFirst()
                    .orElseThrow();
            List<String> failed = c.validity().stream()
                    .filter(v -> !v.passed())
                    .map(v -> v.name())
                    .toList();
            if (!failed.isEmpty()) {
                failedChecksByPoint.put(
                        s.key().precision() + " workers=" + s.key().extra().get("dataloader_num_workers"), failed);
            }
        }
        assertThat(failedChecksByPoint)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "bf16 workers=1", List.of("cv_below_10pct"),
                        "bf16 workers=2", List.of("cv_below_10pct")));
    }

    @Test
    void bf16ThroughputRisesFromZeroToEightDataloaderWorkers() throws IOException {
        List<Envelope> events = events();
        Map<Integer, Double> meanByWorkers = new TreeMap<>();
        for (RunStarted s : payloads(events, RunStarted.class)) {
            if (!s.key().precision().equals("bf16")) {
                continue;
            }
            RunCompleted c = payloads(events, RunCompleted.class).stream()
                    .filter(r -> r.runId().equals(s.runId()))
                    .findFirst()
                    .orElseThrow();
            double mean = c.metrics().stream()
                    .filter(m -> m.name().equals("train_samples_per_second"))
                    .findFirst()
                    .orElseThrow()
                    .statistics()
                    .mean();
            meanByWorkers.put(Integer.valueOf(s.key().extra().get("dataloader_num_workers")), mean);
        }
        assertThat(meanByWorkers).containsOnlyKeys(0, 1, 2, 4, 8);
        assertThat(meanByWorkers.get(8) / meanByWorkers.get(0)).isGreaterThan(3.0);
        assertThat(meanByWorkers.get(4)).isGreaterThan(meanByWorkers.get(2));
    }

    private static List<Envelope> events() throws IOException {
        List<Path> files = JournaledEvents.files(H200);
        assertThat(files).hasSize(2);
        return JournaledEvents.decodeAll(files);
    }
}
