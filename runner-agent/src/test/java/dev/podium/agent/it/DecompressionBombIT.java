package dev.podium.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.agent.support.AgentFixture;
import dev.podium.agent.support.Bombs;
import dev.podium.agent.support.CommandSide;
import dev.podium.agent.support.Events;
import dev.podium.agent.support.KafkaBroker;
import dev.podium.agent.support.TopicTail;
import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.JobSpec;
import dev.podium.events.run.JobClaimed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record of podium.jobs too large for the agent's heap after decompression, a few hundred KB of gzip on the wire,
 * with a signed job behind it: the packaged daemon, started by its launcher ({@code podium-agent}) with 64 MiB of heap
 * and started again whenever it exits, as compose and {@code restart-on-exit.sh} do. Kafka allocates the record whole
 * inside {@code poll}, so each read of it ends the JVM; the read ledger in the agent's home sets it aside after the
 * second, and the job behind it is claimed.
 */
class DecompressionBombIT {

    static final int HEAP_MIB = 64;
    static final int BOMB_BYTES = (2 * HEAP_MIB + 32) * 1024 * 1024;
    static final int PARTITION = 0;
    /** The status of a JVM that ended on an OutOfMemoryError ({@code -XX:+ExitOnOutOfMemoryError}). */
    static final int OUT_OF_MEMORY = 3;

    @TempDir
    Path dir;

    @Test
    void aRecordTooLargeForTheHeapEndsTheAgentAtMostTwiceThenIsSkippedAndTheJobBehindItIsClaimed() throws Exception {
        CommandSide command = new CommandSide();
        AgentFixture agent = AgentFixture.create(dir, "bomb-agent", command);
        Path log = dir.resolve("agent.log");
        try (KafkaBroker kafka = KafkaBroker.start();
                TopicTail tail = new TopicTail(kafka.bootstrapServers(), "podium.events")) {
            RecordMetadata bomb = Bombs.gzip(kafka.bootstrapServers(), "podium.jobs", PARTITION, BOMB_BYTES);
            assertThat(bomb.serializedValueSize()).isEqualTo(BOMB_BYTES);
            UUID job = UUID.randomUUID();
            sendSignedRequest(kafka, command, job);

            List<Integer> exits = new ArrayList<>();
            Process[] daemon = {start(agent, kafka, log)};
            try {
                await("the claim of the job behind the bomb")
                        .atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> {
                            if (!daemon[0].isAlive()) {
                                exits.add(daemon[0].exitValue());
                                assertThat(exits)
                                        .as("exit statuses of the agent so far; its log:%n%s", Files.readString(log))
                                        .hasSizeLessThanOrEqualTo(2);
                                daemon[0] = start(agent, kafka, log);
                            }
                            return Files.readString(log).contains("claimed job " + job);
                        });
            } finally {
                daemon[0].destroy();
                if (!daemon[0].waitFor(30, TimeUnit.SECONDS)) {
                    daemon[0].destroyForcibly();
                }
            }

            assertThat(exits).as("exit statuses of the agent").isNotEmpty().containsOnly(OUT_OF_MEMORY);
            assertThat(Files.readString(log))
                    .contains("skipping record " + PARTITION + "/" + bomb.offset() + " of podium.jobs: too large after"
                            + " decompression: the agent ended each time it read this record, 2 times");
            await("JobClaimed of the job on podium.events")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> Events.verified(tail.records("podium.events"), agent.keyId(), agent.secret()).stream()
                            .map(Envelope::payload)
                            .anyMatch(
                                    e -> e instanceof JobClaimed c && c.jobId().equals(job)));
        }
    }

    private static void sendSignedRequest(KafkaBroker kafka, CommandSide command, UUID job) throws Exception {
        JobSpec spec = new JobSpec(
                "behind-the-bomb",
                "command",
                List.of("true"),
                "jsonl",
                Map.of(),
                Map.of(),
                1,
                0,
                60,
                Map.of(),
                1,
                1,
                "default");
        byte[] value = new EventCodec()
                .encode(Envelope.of(
                        UUID.randomUUID(),
                        StreamId.job(job),
                        1,
                        null,
                        Instant.now(),
                        new JobRequested(job, null, "default", spec)));
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
            producer.send(command.signed(PARTITION, job, value)).get(60, TimeUnit.SECONDS);
        }
    }

    /** The packaged daemon through its launcher, as compose runs it, with a small fixed heap; its output in {@code log}. */
    private static Process start(AgentFixture agent, KafkaBroker kafka, Path log) throws Exception {
        String jar = System.getProperty("podium.agent.jar", "target/podium-agent.jar");
        String launcher = System.getProperty("podium.agent.launcher", "podium-agent");
        assertThat(Path.of(jar)).exists();
        ProcessBuilder pb = new ProcessBuilder(
                        launcher,
                        "daemon",
                        "--key-file",
                        agent.keyFile().toString(),
                        "--home",
                        agent.home().toString(),
                        "--bootstrap-servers",
                        kafka.bootstrapServers(),
                        "--python",
                        "/bin/false")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("PODIUM_AGENT_JAR", jar);
        pb.environment().put("PODIUM_AGENT_JAVA_OPTS", "-Xmx" + HEAP_MIB + "m");
        return pb.start();
    }
}
