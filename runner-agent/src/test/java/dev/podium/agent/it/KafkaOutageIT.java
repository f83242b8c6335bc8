package dev.podium.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.agent.cli.AgentMain;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.agent.support.AgentFixture;
import dev.podium.agent.support.Events;
import dev.podium.agent.support.KafkaBroker;
import dev.podium.events.Envelope;
import dev.podium.events.run.RunCompleted;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import kafka.server.BrokerServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker goes away while a run is under way and comes back after it: every event arrives, once. */
class KafkaOutageIT {

    @TempDir
    Path dir;

    @Test
    void brokerStoppedDuringARunAndStartedAfterItLosesNothing() throws Exception {
        AgentFixture agent = AgentFixture.create(dir, "outage-agent");
        Path gate = dir.resolve("gate");
        Path script = dir.resolve("workload.sh");
        Files.writeString(
                script,
                "while [ ! -f '" + gate + "' ]; do sleep 0.05; done\n"
                        + "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"throughput\", \"value\": 12.5, "
                        + "\"unit\": \"samples/s\", \"direction\": \"higher\"}'\n");
        Path job = agent.job("outage.yaml", """
                benchmark: outage-probe
                adapter: command
                command: ["sh", "%s"]
                parser: jsonl
                repetitions: 2
                timeout_seconds: 120
                """.formatted(script));
        try (KafkaBroker kafka = KafkaBroker.start()) {
            Journal journal = new Journal(agent.home().resolve("journal"), Long.MAX_VALUE);
            CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> AgentMain.execute(
                    "run",
                    job.toString(),
                    "--key-file",
                    agent.keyFile().toString(),
                    "--bootstrap-servers",
                    kafka.bootstrapServers(),
                    "--home",
                    agent.home().toString(),
                    "--flush-timeout",
                    "120",
                    // its script lies beside the key file, which isolation hides; WorkloadIsolationIT runs isolated
                    "--isolation",
                    "off"));
            // RunStarted and the first RunProgress reach Kafka while the workload waits at the gate.
            await().atMost(Duration.ofSeconds(60)).until(() -> journal.sent().size() >= 2);
            BrokerServer broker = kafka.cluster().brokers().values().iterator().next();
            broker.shutdown();
            broker.awaitShutdown();
            Files.writeString(gate, "go");
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> journal.pending().stream().anyMatch(KafkaOutageIT::isRunCompleted));
            assertThat(run).isNotDone();
            broker.startup();
            assertThat(run.get(150, java.util.concurrent.TimeUnit.SECONDS)).isZero();
            assertThat(journal.pendingCount()).isZero();
            int sent = journal.sent().size();
            List<Envelope> events = Events.verified(
                    kafka.records("podium.events", sent, Duration.ofSeconds(60)), agent.keyId(), agent.secret());
            assertThat(events).hasSize(sent);
            assertThat(events.stream().map(Envelope::eventId).distinct()).hasSize(sent);
            var streams = Events.byStream(events);
            Events.assertCompleteStreams(streams);
            assertThat(streams.values().iterator().next())
                    .last()
                    .satisfies(e -> assertThat(e.payload()).isInstanceOf(RunCompleted.class));
        }
    }

    static boolean isRunCompleted(JournalEntry e) {
        return new String(e.value(), StandardCharsets.UTF_8).contains("\"type\":\"RunCompleted\"");
    }
}
