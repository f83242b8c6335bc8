package dev.podium.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.agent.journal.Journal;
import dev.podium.agent.support.AgentFixture;
import dev.podium.agent.support.Events;
import dev.podium.agent.support.KafkaBroker;
import dev.podium.events.Envelope;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent process is killed with SIGKILL after its run finished but before Kafka acknowledged anything (Kafka is not
 * reachable yet); a restarted agent delivers the whole journal.
 */
class SigkillIT {

    @TempDir
    Path dir;

    @Test
    void killedAfterARunBeforeSendingThenRestartedDeliversEverything() throws Exception {
        AgentFixture agent = AgentFixture.create(dir, "kill-agent");
        Path script = dir.resolve("workload.sh");
        Files.writeString(
                script,
                "echo 'step done'\n"
                        + "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"throughput\", \"value\": 40.0, \"unit\": \"samples/s\"}'\n");
        Path job = agent.job("kill.yaml", """
                benchmark: sigkill-probe
                adapter: command
                command: ["sh", "%s"]
                parser: jsonl
                matrix: {variant: [a, b]}
                repetitions: 2
                """.formatted(script));
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort(); // closed again below: nothing listens there while the agent runs
        }
        Process first = agent(List.of(
                "run",
                job.toString(),
                "--key-file",
                agent.keyFile().toString(),
                "--bootstrap-servers",
                "127.0.0.1:" + deadPort,
                "--home",
                agent.home().toString(),
                "--flush-timeout",
                "600",
                // its script lies beside the key file, which isolation hides; WorkloadIsolationIT runs isolated
                "--isolation",
                "off"));
        Journal journal = new Journal(agent.home().resolve("journal"), Long.MAX_VALUE);
        await().atMost(Duration.ofSeconds(90))
                .until(() -> journal.pending().stream()
                                .filter(KafkaOutageIT::isRunCompleted)
                                .count()
                        == 2);
        assertThat(first.isAlive()).isTrue(); // still waiting for Kafka to acknowledge
        first.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).isEqualTo(137);
        int journaled = journal.pendingCount();
        assertThat(journal.sent()).isEmpty();

        try (KafkaBroker kafka = KafkaBroker.start()) {
            Process second = agent(List.of(
                    "journal",
                    "--flush",
                    "--home",
                    agent.home().toString(),
                    "--bootstrap-servers",
                    kafka.bootstrapServers(),
                    "--flush-timeout",
                    "60"));
            assertThat(second.waitFor(90, TimeUnit.SECONDS)).isTrue();
            assertThat(second.exitValue()).isZero();
            assertThat(journal.pendingCount()).isZero();
            List<Envelope> events = Events.verified(
                    kafka.records("podium.events", journaled, Duration.ofSeconds(60)), agent.keyId(), agent.secret());
            assertThat(events).hasSize(journaled);
            var streams = Events.byStream(events);
            assertThat(streams).hasSize(2);
            Events.assertCompleteStreams(streams);
            streams.values().forEach(run -> {
                assertThat(run.get(0).payload()).isInstanceOf(RunStarted.class);
                assertThat(run.get(run.size() - 1).payload()).isInstanceOf(RunCompleted.class);
            });
        }
    }

    /** The packaged agent in its own JVM, as an operator runs it. */
    private Process agent(List<String> args) throws Exception {
        String jar = System.getProperty("podium.agent.jar", "target/podium-agent.jar");
        assertThat(Path.of(jar)).exists();
        List<String> cmd = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar));
        cmd.addAll(args);
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(
                        dir.resolve("agent-" + System.nanoTime() + ".log").toFile())
                .start();
    }
}
