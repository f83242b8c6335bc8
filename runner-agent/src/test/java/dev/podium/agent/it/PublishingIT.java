package dev.podium.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.agent.cli.AgentMain;
import dev.podium.agent.support.AgentFixture;
import dev.podium.agent.support.Events;
import dev.podium.agent.support.KafkaBroker;
import dev.podium.agent.support.Resources;
import dev.podium.events.Envelope;
import dev.podium.events.agent.AgentRegistered;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.sign.EventSigner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** submit for each format (and hostile output), secrets kept out of journal and Kafka, daemon registration and heartbeats. */
class PublishingIT {

    static KafkaBroker kafka;

    @TempDir
    Path dir;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = KafkaBroker.start();
    }

    @AfterAll
    static void stopKafka() throws Exception {
        kafka.close();
    }

    private List<Envelope> runEvents(AgentFixture agent) {
        List<ConsumerRecord<String, byte[]>> all = kafka.records("podium.events", 1, Duration.ofSeconds(30));
        List<ConsumerRecord<String, byte[]>> mine = all.stream()
                .filter(r -> new String(r.value(), StandardCharsets.UTF_8)
                        .contains("\"agent_id\":\"" + agent.agentId() + "\""))
                .toList();
        return Events.verified(mine, agent.keyId(), agent.secret());
    }

    private int submit(AgentFixture agent, String format, String... files) {
        List<String> args = new ArrayList<>(List.of(
                "submit",
                "--format",
                format,
                "--benchmark",
                "ci-upload",
                "--key-file",
                agent.keyFile().toString(),
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--home",
                agent.home().toString(),
                "--param",
                "dataloader_num_workers=2"));
        for (String f : files) {
            args.add(Resources.path(f).toString());
        }
        return AgentMain.execute(args.toArray(String[]::new));
    }

    @Test
    void submitPublishesARunForEachFormat() throws Exception {
        record Case(String format, String file, String metric, double value) {}
        List<Case> cases = List.of(
                new Case("hf-trainer", "parse/hf-trainer-log.txt", "train_samples_per_second", 35.158),
                new Case("hf-trainer", "parse/all_results.json", "eval_accuracy", 0.8412),
                new Case("optimum-benchmark", "parse/benchmark_report.json", "forward.throughput", 57.16624108437925),
                new Case("mlperf", "parse/mlperf_log_summary.txt", "samples_per_second", 2351.95),
                new Case("mlperf", "parse/mllog.txt", "time_to_train", 1200.0),
                new Case("jsonl", "parse/reference-output.txt", "train_samples_per_second", -1));
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            AgentFixture agent = AgentFixture.create(dir, "submit-" + i);
            assertThat(submit(agent, c.format(), c.file(), c.file()))
                    .as(c.file())
                    .isZero();
            List<Envelope> events = runEvents(agent);
            assertThat(events).hasSize(2);
            RunCompleted done = (RunCompleted) events.stream()
                    .filter(e -> e.payload() instanceof RunCompleted)
                    .findFirst()
                    .orElseThrow()
                    .payload();
            var metric = done.metrics().stream()
                    .filter(m -> m.name().equals(c.metric()))
                    .findFirst()
                    .orElseThrow();
            assertThat(metric.values()).hasSize(2);
            if (c.value() >= 0) {
                assertThat(metric.statistics().mean()).isEqualTo(c.value(), org.assertj.core.data.Offset.offset(1e-9));
            }
        }
    }

    @Test
    void eventsJournaledWithoutKafkaAreSentByTheNextStartThatHasIt() throws Exception {
        AgentFixture agent = AgentFixture.create(dir, "offline-agent");
        String file = Resources.path("parse/mlperf_log_summary.txt").toString();
        assertThat(AgentMain.execute(
                        "submit",
                        "--format",
                        "mlperf",
                        "--benchmark",
                        "offline",
                        "--key-file",
                        agent.keyFile().toString(),
                        "--home",
                        agent.home().toString(),
                        file))
                .isZero();
        assertThat(new dev.podium.agent.journal.Journal(agent.home().resolve("journal"), Long.MAX_VALUE).pendingCount())
                .isEqualTo(2);
        assertThat(submit(agent, "mlperf", "parse/mlperf_log_summary.txt")).isZero();
        List<Envelope> events = runEvents(agent);
        assertThat(events).hasSize(4);
        assertThat(Events.byStream(events)).hasSize(2);
    }

    @Test
    void submitOfHostileOrGarbledOutputPublishesRunFailedInPhaseParse() throws Exception {
        for (String file : List.of(
                "parse/hostile/hf-hostile.txt",
                "parse/hostile/hf-truncated.txt",
                "parse/hostile/optimum-garbled.json",
                "parse/hostile/mlperf-garbage.txt")) {
            AgentFixture agent = AgentFixture.create(dir, "hostile-" + Math.abs(file.hashCode()));
            String format =
                    file.contains("optimum") ? "optimum-benchmark" : file.contains("mlperf") ? "mlperf" : "hf-trainer";
            assertThat(submit(agent, format, file)).as(file).isEqualTo(1);
            List<Envelope> events = runEvents(agent);
            assertThat(events)
                    .last()
                    .satisfies(e -> assertThat(e.payload())
                            .isInstanceOfSatisfying(
                                    RunFailed.class, f -> assertThat(f.phase()).isEqualTo("parse")));
        }
    }

    @Test
    void aTokenInTheJobsEnvironmentNeverReachesTheJournalOrKafka() throws Exception {
        String token = "hf_SuperSecretToken0123456789";
        AgentFixture agent = AgentFixture.create(dir, "token-agent");
        Path script = dir.resolve("leaky.sh");
        // A careless workload that prints its token, then fails: the log tail goes into RunFailed.
        Files.writeString(
                script,
                "echo \"logging in with $HF_TOKEN\"\necho \"args: $*\"\n"
                        + "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"tput\", \"value\": 3.0}'\nexit \"$FAIL\"\n");
        Path ok = agent.job("ok.yaml", """
                benchmark: token-probe
                adapter: command
                command: ["sh", "%s", "--hf-token={tok}"]
                parser: jsonl
                parameters: {tok: "%s"}
                repetitions: 1
                environment: {HF_TOKEN: "%s", FAIL: "0"}
                """.formatted(script, token, token));
        Path failing = agent.job("fail.yaml", Files.readString(ok).replace("FAIL: \"0\"", "FAIL: \"3\""));
        String[] common = {
            "--key-file",
            agent.keyFile().toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--home",
            agent.home().toString(),
            "--allow-env",
            "HF_TOKEN,FAIL",
            // its scripts lie beside the key file, which isolation hides; WorkloadIsolationIT runs isolated
            "--isolation",
            "off"
        };
        assertThat(AgentMain.execute(Stream.concat(Stream.of("run", ok.toString()), Stream.of(common))
                        .toArray(String[]::new)))
                .isZero();
        assertThat(AgentMain.execute(Stream.concat(Stream.of("run", failing.toString()), Stream.of(common))
                        .toArray(String[]::new)))
                .isEqualTo(1);

        List<Envelope> events = runEvents(agent);
        assertThat(events)
                .anySatisfy(e -> assertThat(e.payload()).isInstanceOfSatisfying(RunFailed.class, f -> {
                    assertThat(f.exitCode()).isEqualTo(3);
                    assertThat(f.logTail()).contains("logging in with ***");
                }));
        for (ConsumerRecord<String, byte[]> r : kafka.records("podium.events", events.size(), Duration.ofSeconds(30))) {
            assertThat(new String(r.value(), StandardCharsets.UTF_8)).doesNotContain(token);
            r.headers()
                    .forEach(h -> assertThat(new String(h.value(), StandardCharsets.UTF_8))
                            .doesNotContain(token));
        }
        try (Stream<Path> files = Files.walk(agent.home())) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
                        .as(f.toString())
                        .doesNotContain(token);
            }
        }
    }

    @Test
    void daemonRegistersAndSendsSignedHeartbeats() throws Exception {
        AgentFixture agent = AgentFixture.create(dir, "daemon-agent");
        assertThat(AgentMain.execute(
                        "daemon",
                        "--key-file",
                        agent.keyFile().toString(),
                        "--bootstrap-servers",
                        kafka.bootstrapServers(),
                        "--home",
                        agent.home().toString(),
                        "--heartbeats",
                        "2",
                        "--heartbeat-interval",
                        "1"))
                .isZero();
        List<Envelope> events = runEvents(agent);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.payload()).isInstanceOf(AgentRegistered.class);
            assertThat(e.streamId()).startsWith("agent/daemon-agent/");
        });
        List<ConsumerRecord<String, byte[]>> beats =
                kafka.records("podium.heartbeats", 2, Duration.ofSeconds(30)).stream()
                        .filter(r -> r.key().equals("daemon-agent"))
                        .toList();
        assertThat(beats).hasSize(2).allSatisfy(r -> {
            assertThat(EventSigner.verifyHeartbeat(
                            r.value(), Events.header(r, EventSigner.SIGNATURE_HEADER), agent.secret()))
                    .isTrue();
            JsonNode hb = new ObjectMapper().readTree(r.value());
            assertThat(hb.path("agent_id").asText()).isEqualTo("daemon-agent");
            assertThat(hb.path("state").asText()).isEqualTo("idle");
            assertThat(hb.path("boot_id").asText())
                    .isEqualTo(
                            ((AgentRegistered) events.get(0).payload()).bootId().toString());
        });
    }
}
