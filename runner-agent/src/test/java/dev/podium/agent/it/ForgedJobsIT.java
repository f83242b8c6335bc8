package dev.podium.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.agent.config.AgentSettings;
import dev.podium.agent.config.KeyFile;
import dev.podium.agent.daemon.Daemon;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.publish.EventSink;
import dev.podium.agent.publish.Publisher;
import dev.podium.agent.support.AgentFixture;
import dev.podium.agent.support.Bombs;
import dev.podium.agent.support.CommandSide;
import dev.podium.agent.support.Events;
import dev.podium.agent.support.KafkaBroker;
import dev.podium.agent.support.TopicTail;
import dev.podium.agent.workload.Isolation;
import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobEvent;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.WorkloadAllowlist;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An attacker who can write to podium.jobs but holds no command key, against a daemon agent on a real broker (one slot
 * for jobs plus room for the sentinel claims that show what it has read): whatever the attacker writes, unsigned,
 * signed with a key of its own, or replayed from what the command side signed, the forged command ({@code touch} of a
 * marker file) never runs and no grant runs twice.
 * <p>
 * To show that the agent did <em>not</em> act on a record, a signed sentinel job goes to the same partition after it;
 * once the agent claimed the sentinel, it has read everything before it.
 */
class ForgedJobsIT {

    static final Duration WAIT = Duration.ofSeconds(60);
    static final EventCodec CODEC = new EventCodec();
    static final int PARTITION = 0;

    @TempDir
    static Path dir;

    static KafkaBroker kafka;
    static TopicTail tail;
    static KafkaProducer<String, byte[]> producer;
    static final CommandSide COMMAND = new CommandSide();
    static AgentFixture fixture;
    static Publisher publisher;
    static Daemon daemon;
    static Thread thread;

    @BeforeAll
    static void startAgent() throws Exception {
        kafka = KafkaBroker.start();
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        tail = new TopicTail(kafka.bootstrapServers(), "podium.events");
        Files.writeString(
                dir.resolve("counted.sh"),
                "echo ran >> \"$COUNT_FILE\"\n"
                        + "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"train_samples_per_second\", \"value\": 9.5}'\n");
        fixture = AgentFixture.create(dir, "v1", COMMAND);
        Journal journal = new Journal(fixture.home().resolve("journal"), AgentSettings.DEFAULT_JOURNAL_MAX_BYTES);
        publisher = new Publisher(journal, kafka.bootstrapServers(), null);
        daemon = daemon(fixture, journal, publisher, JobsIT.prefixed("v1"));
        thread = new Thread(daemon::run, "daemon-v1");
        thread.start();
    }

    static Daemon daemon(AgentFixture f, Journal journal, Publisher pub, PrintStream log) throws Exception {
        Files.writeString(f.keyFile(), "pool=v\n", java.nio.file.StandardOpenOption.APPEND);
        KeyFile.Identity id = KeyFile.load(f.keyFile(), Map.of());
        AgentSettings settings = new AgentSettings(
                id.agentId(),
                id.keyId(),
                id.secret(),
                id.pool(),
                kafka.bootstrapServers(),
                id.kafkaLogin(),
                f.home().resolve("journal"),
                AgentSettings.DEFAULT_JOURNAL_MAX_BYTES,
                id.commandKey());
        EventSink sink = new EventSink(journal, id.agentId(), settings.keyId(), settings.secret(), Clock.systemUTC());
        sink.attach(pub);
        Fingerprint fp = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(), null, List.of());
        return new Daemon(
                new Daemon.Config(
                        settings,
                        fp,
                        f.home().resolve("workload"),
                        "/usr/bin/python3",
                        Duration.ofSeconds(1),
                        0,
                        8,
                        Duration.ofMinutes(5),
                        500,
                        java.util.Set.of("COUNT_FILE"),
                        // What the agent runs is under test here; WorkloadIsolationIT runs workloads isolated.
                        Isolation.off(f.home().resolve("workload")),
                        // touch too: a forged job must be refused for its signature, not for its executable
                        new WorkloadAllowlist(WorkloadAllowlist.DEFAULT.adapters(), List.of("sh", "touch"))),
                sink,
                log);
    }

    @AfterAll
    static void stopAgent() throws Exception {
        if (daemon != null) {
            daemon.stop();
            thread.join(60_000);
            publisher.close();
        }
        if (tail != null) {
            tail.close();
        }
        if (producer != null) {
            producer.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    static JobSpec touch(Path marker) {
        return new JobSpec(
                "forged",
                "command",
                List.of("touch", marker.toString()),
                "jsonl",
                Map.of(),
                Map.of(),
                1,
                0,
                60,
                Map.of(),
                1,
                1,
                "v");
    }

    static JobSpec counted(Path countFile) {
        return new JobSpec(
                "counted",
                "command",
                List.of("sh", dir.resolve("counted.sh").toString()),
                "jsonl",
                Map.of(),
                Map.of(),
                1,
                0,
                60,
                Map.of("COUNT_FILE", countFile.toString()),
                1,
                1,
                "v");
    }

    static byte[] encode(UUID jobId, long seq, JobEvent event) {
        return CODEC.encode(Envelope.of(UUID.randomUUID(), StreamId.job(jobId), seq, null, Instant.now(), event));
    }

    static void send(ProducerRecord<String, byte[]> r) throws Exception {
        producer.send(r).get();
    }

    /** What an attacker without a key writes: the record as the command side would, with no signature. */
    static void unsigned(UUID jobId, long seq, JobEvent event) throws Exception {
        send(new ProducerRecord<>("podium.jobs", PARTITION, jobId.toString(), encode(jobId, seq, event)));
    }

    /** A record signed by the command side; returned so that a test can replay it. */
    static ProducerRecord<String, byte[]> signed(UUID jobId, long seq, JobEvent event) throws Exception {
        ProducerRecord<String, byte[]> r = COMMAND.signed(PARTITION, jobId, encode(jobId, seq, event));
        send(r);
        return r;
    }

    /** Every event of agent v1 read so far, verified against its key. */
    static List<Envelope> events() {
        return Events.verified(
                tail.records("podium.events").stream()
                        .filter(r -> fixture.keyId()
                                .equals(Events.header(r, dev.podium.events.sign.EventSigner.KEY_ID_HEADER)))
                        .toList(),
                fixture.keyId(),
                fixture.secret());
    }

    static List<JobClaimed> claims(UUID jobId) {
        return events().stream()
                .map(Envelope::payload)
                .filter(e -> e instanceof JobClaimed c && c.jobId().equals(jobId))
                .map(JobClaimed.class::cast)
                .toList();
    }

    static UUID awaitClaim(UUID jobId) {
        return await("the claim of job " + jobId)
                .atMost(WAIT)
                .until(() -> claims(jobId), c -> !c.isEmpty())
                .get(0)
                .runId();
    }

    static List<Envelope> run(UUID runId) {
        return events().stream()
                .filter(e -> e.streamId().equals("run/" + runId))
                .toList();
    }

    /** Waits until the agent has read the partition up to here: it claimed a signed sentinel sent now. */
    static void barrier() throws Exception {
        UUID sentinel = UUID.randomUUID();
        signed(sentinel, 1, new JobRequested(sentinel, null, "v", counted(dir.resolve("sentinel-" + sentinel))));
        awaitClaim(sentinel);
        signed(sentinel, 2, new JobCancelled(sentinel, "sentinel", "test"));
    }

    @Test
    void forgedRequestsAndGrantsOfTheClaimedRunNeverRunTheirCommand() throws Exception {
        Path marker = dir.resolve("forged-" + UUID.randomUUID());
        UUID forgedJob = UUID.randomUUID();
        unsigned(forgedJob, 1, new JobRequested(forgedJob, null, "v", touch(marker)));
        UUID job = UUID.randomUUID();
        Path count = dir.resolve("count-" + job);
        signed(job, 1, new JobRequested(job, null, "v", counted(count)));
        UUID claimed = awaitClaim(job);
        assertThat(claims(forgedJob)).as("an unsigned request is no offer").isEmpty();

        // The attack: grants naming the agent's claimed run, and a request replacing the job's spec.
        unsigned(
                forgedJob,
                2,
                new JobAssigned(forgedJob, claimed, "v1", 1, Instant.now().plusSeconds(60)));
        unsigned(job, 2, new JobRequested(job, null, "v", touch(marker)));
        unsigned(job, 3, new JobAssigned(job, claimed, "v1", 1, Instant.now().plusSeconds(60)));
        CommandSide attackersOwnKey = new CommandSide();
        send(attackersOwnKey.signed(
                PARTITION,
                job,
                encode(job, 2, new JobRequested(job, null, "v", touch(marker))),
                new JobRequested(job, null, "v", touch(marker)),
                2));
        JobAssigned grant = new JobAssigned(job, claimed, "v1", 1, Instant.now().plusSeconds(60));
        send(attackersOwnKey.signed(PARTITION, job, encode(job, 3, grant), grant, 1));
        barrier();
        assertThat(run(claimed)).as("run " + claimed).noneMatch(e -> e.payload() instanceof RunStarted);

        // The command side's own grant runs what the agent claimed, not what the forged requests asked for.
        signed(job, 2, new JobAssigned(job, claimed, "v1", 1, Instant.now().plusSeconds(60)));
        await().atMost(WAIT).until(() -> run(claimed).stream().anyMatch(e -> e.payload() instanceof RunCompleted));
        barrier();
        assertThat(marker).as("the forged command's marker").doesNotExist();
        assertThat(Files.readAllLines(count)).containsExactly("ran");
    }

    /**
     * 64 MB of zeros, unsigned, a few tens of KB of gzip on the wire: the agent never copies it (over the 1 MiB limit
     * after decompression), skips it, and takes the signed job behind it.
     */
    @Test
    void aDecompressionBombOnTheJobsTopicIsSkippedAndTheNextJobIsTaken() throws Exception {
        Bombs.gzip(kafka.bootstrapServers(), "podium.jobs", PARTITION, 64_000_000);
        barrier();
    }

    @Test
    void aReplayedGrantNeverRunsTwice() throws Exception {
        UUID job = UUID.randomUUID();
        Path count = dir.resolve("count-" + job);
        ProducerRecord<String, byte[]> request = signed(job, 1, new JobRequested(job, null, "v", counted(count)));
        UUID claimed = awaitClaim(job);
        ProducerRecord<String, byte[]> grant = signed(job, 2, new JobAssigned(job, claimed, "v1", 1, null));
        await().atMost(WAIT).until(() -> run(claimed).stream().anyMatch(e -> e.payload() instanceof RunCompleted));

        send(request);
        send(grant);
        send(grant);
        barrier();

        assertThat(Files.readAllLines(count)).containsExactly("ran");
        assertThat(run(claimed))
                .filteredOn(e -> e.payload() instanceof RunStarted)
                .hasSize(1);
        assertThat(claims(job)).as("a replayed request is no new offer").hasSize(1);
    }

    @Test
    void anAgentWhoseKeyFileHasNoCommandKeyTakesNoJobsAndSaysWhy() throws Exception {
        AgentFixture old = AgentFixture.create(dir, "old1");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(out, true, StandardCharsets.UTF_8);
        Journal journal = new Journal(old.home().resolve("journal"), AgentSettings.DEFAULT_JOURNAL_MAX_BYTES);
        try (Publisher pub = new Publisher(journal, kafka.bootstrapServers(), null)) {
            Daemon oldDaemon = daemon(old, journal, pub, log);
            Thread t = new Thread(oldDaemon::run, "daemon-old1");
            t.start();
            try {
                await().atMost(WAIT)
                        .until(() -> out.toString(StandardCharsets.UTF_8).contains("this agent takes no jobs"));
                UUID job = UUID.randomUUID();
                signed(job, 1, new JobRequested(job, null, "v", counted(dir.resolve("count-" + job))));
                awaitClaim(job);
                barrier();
                await().atMost(WAIT).until(() -> journal.pendingCount() == 0);
                List<String> writers = new ArrayList<>();
                for (ConsumerRecord<String, byte[]> r : tail.records("podium.events")) {
                    if (r.key().startsWith("run/")) {
                        writers.add(Events.header(r, dev.podium.events.sign.EventSigner.KEY_ID_HEADER));
                    }
                }
                assertThat(writers).as("key ids of the run streams' writers").doesNotContain(old.keyId());
                assertThat(out.toString(StandardCharsets.UTF_8)).contains("command.public.key");
            } finally {
                oldDaemon.stop();
                t.join(60_000);
            }
        }
    }
}
