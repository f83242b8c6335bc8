package dev.podium.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.cli.AgentMain;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.support.AgentFixture;
import dev.podium.agent.support.Events;
import dev.podium.agent.support.KafkaBroker;
import dev.podium.events.Envelope;
import dev.podium.events.model.Metric;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent really runs the shipped PyTorch workload (tiny, CPU, Debian's python3-torch) over dataloader_num_workers 0, 1,
 * 2 with 2 repetitions each and publishes through a real broker; the events decode, validate and verify with {@code events}.
 */
class ReferenceSweepIT {

    @TempDir
    Path dir;

    @Test
    void referenceSweepPublishesVerifiedRunsWithPositiveFiniteThroughputs() throws Exception {
        AgentFixture agent = AgentFixture.create(dir, "sweep-agent");
        Path job = agent.job("sweep.yaml", """
                benchmark: podium-reference
                version: "1"
                adapter: reference
                parameters: {size: tiny, batch_size: 8, precision: fp32, steps: 10, seed: 7, device: cpu, threads: 1}
                matrix:
                  dataloader_num_workers: [0, 1, 2]
                repetitions: 2
                warmup_steps: 2
                timeout_seconds: 300
                """);
        try (KafkaBroker kafka = KafkaBroker.start()) {
            int exit = AgentMain.execute(
                    "run",
                    job.toString(),
                    "--key-file",
                    agent.keyFile().toString(),
                    "--bootstrap-servers",
                    kafka.bootstrapServers(),
                    "--home",
                    agent.home().toString(),
                    "--sample-interval-ms",
                    "250",
                    "--python",
                    "/usr/bin/python3");
            assertThat(exit).isZero();
            Journal journal = new Journal(agent.home().resolve("journal"), Long.MAX_VALUE);
            assertThat(journal.pendingCount()).isZero();
            int sent = journal.sent().size();
            List<Envelope> events = Events.verified(
                    kafka.records("podium.events", sent, Duration.ofSeconds(60)), agent.keyId(), agent.secret());
            assertThat(events).hasSize(sent);
            Map<String, List<Envelope>> streams = Events.byStream(events);
            assertThat(streams).hasSize(3);
            Events.assertCompleteStreams(streams);
            Map<String, List<Double>> throughputByWorkers = new TreeMap<>();
            for (List<Envelope> run : streams.values()) {
                assertThat(run.get(0).payload()).isInstanceOf(RunStarted.class);
                assertThat(run.get(run.size() - 1).payload()).isInstanceOf(RunCompleted.class);
                assertThat(run).allSatisfy(e -> assertThat(e.agentId()).isEqualTo("sweep-agent"));
                RunStarted started = (RunStarted) run.get(0).payload();
                assertThat(started.accelerators().get(0).deviceId()).startsWith("cpu-");
                assertThat(started.software().frameworkVersion()).isNotBlank();
                assertThat(started.key().precision()).isEqualTo("fp32");
                assertThat(started.key().perDeviceBatchSize()).isEqualTo(8);
                String workers = started.key().extra().get("dataloader_num_workers");
                assertThat(run)
                        .anySatisfy(e -> assertThat(e.payload())
                                .isInstanceOfSatisfying(
                                        MetricSampled.class,
                                        m -> assertThat(m.series()).isEqualTo(SeriesKind.STEP_THROUGHPUT)));
                assertThat(run)
                        .anySatisfy(e -> assertThat(e.payload())
                                .isInstanceOfSatisfying(
                                        MetricSampled.class,
                                        m -> assertThat(m.series()).isEqualTo(SeriesKind.CPU_UTILISATION)));
                RunCompleted done = (RunCompleted) run.get(run.size() - 1).payload();
                Metric tput = done.metrics().stream()
                        .filter(m -> m.name().equals("train_samples_per_second"))
                        .findFirst()
                        .orElseThrow();
                assertThat(tput.values())
                        .hasSize(2)
                        .allSatisfy(v -> assertThat(v).isPositive().isFinite());
                assertThat(tput.statistics().n()).isEqualTo(2);
                assertThat(tput.warmupExcluded()).isTrue();
                assertThat(done.validity()).extracting(v -> v.name()).contains("min_repetitions", "warmup_excluded");
                throughputByWorkers.put(workers, tput.values());
            }
            assertThat(throughputByWorkers).containsOnlyKeys("0", "1", "2");
            System.out.println(
                    "reference sweep throughput (samples/s) by dataloader_num_workers: " + throughputByWorkers);
        }
    }
}
