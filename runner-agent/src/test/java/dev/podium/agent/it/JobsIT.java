package dev.podium.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.WorkloadAllowlist;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import dev.podium.events.sign.EventSigner;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jobs protocol on a real broker, the test playing the command side on podium.jobs: daemons a1 and a2 serve pool
 * {@code a}, b1 serves pool {@code b}. Each job is a tiny shell script speaking the JSON-lines protocol; a gated one waits
 * for a file the test creates, so "running" is a state the test controls rather than a duration it guesses.
 * <p>
 * To show that an agent did <em>not</em> react to a record, the test sends a sentinel job to the same partition after it
 * and waits for the agent's claim of the sentinel (so it has read everything before) and for its journal to be empty (so
 * everything it published is in Kafka), then reads the whole topic.
 */
class JobsIT {

    static final Duration WAIT = Duration.ofSeconds(60);

    record Agent(AgentFixture fixture, Journal journal, Publisher publisher, Daemon daemon, Thread thread) {
        void stop() throws InterruptedException {
            if (!stopped.add(fixture.agentId())) {
                return;
            }
            daemon.stop();
            thread.join(60_000);
            publisher.close();
        }
    }

    @TempDir
    static Path dir;

    static KafkaBroker kafka;
    static TopicTail tail;
    static KafkaProducer<String, byte[]> commandSide;

    /** The daemons' own allowlist: the jobs' scripts run with sh. */
    static final WorkloadAllowlist SH_ONLY = new WorkloadAllowlist(WorkloadAllowlist.DEFAULT.adapters(), List.of("sh"));

    static final CommandSide SIGNER = new CommandSide();
    static Fingerprint fingerprint;
    static final Map<String, Agent> agents = new ConcurrentHashMap<>();
    static final Map<UUID, AtomicLong> jobSeqs = new ConcurrentHashMap<>();
    static final EventCodec CODEC = new EventCodec();

    static final java.util.Set<String> stopped = ConcurrentHashMap.newKeySet();

    private final List<UUID> jobsOfThisTest = new ArrayList<>();
    private final Map<UUID, Integer> partitions = new LinkedHashMap<>();

    @BeforeAll
    static void startFleet() throws Exception {
        kafka = KafkaBroker.start();
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        commandSide = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        tail = new TopicTail(kafka.bootstrapServers(), "podium.events", "podium.heartbeats");
        fingerprint = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(), null, List.of());
        Files.writeString(
                dir.resolve("fast.sh"),
                "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"train_samples_per_second\", \"value\": 9.5}'\n");
        Files.writeString(
                dir.resolve("gated.sh"),
                "echo $$ > \"$PID_FILE\"\n"
                        + "echo '{\"podium\": 1, \"type\": \"step\", \"step\": 1, \"warmup\": false, \"samples\": 4, \"seconds\": 0.5}'\n"
                        + "while [ ! -f \"$GATE\" ]; do sleep 0.05; done\n"
                        + "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"train_samples_per_second\", \"value\": 8.0}'\n");
        start("a1", "a", 1);
        start("a2", "a", 1);
        start("b1", "b", 1);
    }

    @AfterAll
    static void stopFleet() throws Exception {
        for (Agent a : agents.values()) {
            a.stop();
        }
        if (tail != null) {
            tail.close();
        }
        if (commandSide != null) {
            commandSide.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void cancelJobsOfThisTest() {
        jobsOfThisTest.forEach(job -> send(job, new JobCancelled(job, "end of test", "test")));
    }

    static Agent start(String agentId, String pool, int slots) throws Exception {
        AgentFixture fixture = AgentFixture.create(dir, agentId, SIGNER);
        Files.writeString(fixture.keyFile(), "pool=" + pool + "\n", StandardOpenOption.APPEND);
        KeyFile.Identity id = KeyFile.load(fixture.keyFile(), Map.of());
        AgentSettings settings = new AgentSettings(
                id.agentId(),
                id.keyId(),
                id.secret(),
                id.pool(),
                kafka.bootstrapServers(),
                id.kafkaLogin(),
                fixture.home().resolve("journal"),
                AgentSettings.DEFAULT_JOURNAL_MAX_BYTES,
                id.commandKey());
        Journal journal = new Journal(settings.journalDir(), settings.journalMaxBytes());
        EventSink sink = new EventSink(journal, agentId, settings.keyId(), settings.secret(), Clock.systemUTC());
        Publisher publisher = new Publisher(journal, kafka.bootstrapServers(), null);
        sink.attach(publisher);
        Daemon daemon = new Daemon(
                new Daemon.Config(
                        settings,
                        fingerprint,
                        fixture.home().resolve("workload"),
                        "/usr/bin/python3",
                        Duration.ofSeconds(1),
                        0,
                        slots,
                        Duration.ofMinutes(5),
                        500,
                        java.util.Set.of("GATE", "PID_FILE"),
                        // The protocol is under test here; WorkloadIsolationIT runs workloads isolated.
                        Isolation.off(fixture.home().resolve("workload")),
                        SH_ONLY),
                sink,
                prefixed(agentId));
        Thread thread = new Thread(daemon::run, "daemon-" + agentId);
        thread.start();
        Agent agent = new Agent(fixture, journal, publisher, daemon, thread);
        agents.put(agentId, agent);
        return agent;
    }

    // --- the command side

    static byte[] encode(UUID jobId, JobEvent event) {
        long seq = jobSeqs.computeIfAbsent(jobId, k -> new AtomicLong()).incrementAndGet();
        return CODEC.encode(Envelope.of(UUID.randomUUID(), StreamId.job(jobId), seq, null, Instant.now(), event));
    }

    /**
     * Produces a record to podium.jobs (to {@code partition} when not null), signed by the command side, and returns the
     * partition it went to.
     */
    static int produce(Integer partition, UUID key, byte[] value) {
        try {
            return commandSide.send(SIGNER.signed(partition, key, value)).get().partition();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static int send(UUID jobId, JobEvent event) {
        return produce(null, jobId, encode(jobId, event));
    }

    static JobSpec spec(String pool, String script, Map<String, String> env) {
        return new JobSpec(
                "jobs-it",
                "command",
                List.of("sh", dir.resolve(script).toString()),
                "jsonl",
                Map.of("case", pool),
                Map.of(),
                1,
                0,
                120,
                env,
                1,
                1,
                pool);
    }

    UUID request(String pool) {
        UUID job = UUID.randomUUID();
        jobsOfThisTest.add(job);
        partitions.put(job, send(job, new JobRequested(job, null, pool, spec(pool, "fast.sh", Map.of()))));
        return job;
    }

    /** A job that runs until {@code gate} exists, writing its shell's pid to {@code <job>.pid}. */
    UUID requestGated(String pool, Path gate) {
        UUID job = UUID.randomUUID();
        jobsOfThisTest.add(job);
        send(
                job,
                new JobRequested(
                        job,
                        null,
                        pool,
                        spec(
                                pool,
                                "gated.sh",
                                Map.of(
                                        "GATE",
                                        gate.toString(),
                                        "PID_FILE",
                                        pidFile(job).toString()))));
        return job;
    }

    static Path pidFile(UUID job) {
        return dir.resolve(job + ".pid");
    }

    /**
     * Sends a sentinel job of {@code pool} to {@code partition} and waits until each of {@code agentIds} claimed it and
     * has nothing left in its journal: each has then read that partition up to the sentinel and everything it published
     * before is in Kafka. The sentinel is cancelled again.
     */
    void barrier(int partition, String pool, String... agentIds) {
        UUID sentinel = UUID.randomUUID();
        produce(
                partition,
                sentinel,
                encode(sentinel, new JobRequested(sentinel, null, pool, spec(pool, "fast.sh", Map.of()))));
        await("claims of sentinel " + sentinel + " by " + List.of(agentIds))
                .atMost(WAIT)
                .until(() -> claimants(sentinel).keySet().containsAll(List.of(agentIds)));
        produce(partition, sentinel, encode(sentinel, new JobCancelled(sentinel, "sentinel", "test")));
        for (String a : agentIds) {
            await("empty journal of " + a)
                    .atMost(WAIT)
                    .until(() -> agents.get(a).journal().pendingCount() == 0);
        }
    }

    // --- what the agents published

    /** Every event read so far, each decoded, validated and verified against its agent's key. */
    static List<Envelope> events() {
        return verify(tail.records("podium.events"));
    }

    /** Every event in the topic now (after a barrier: everything the agents published). */
    static List<Envelope> allEvents() {
        return verify(kafka.records("podium.events", 1, WAIT));
    }

    static List<Envelope> verify(List<ConsumerRecord<String, byte[]>> records) {
        List<Envelope> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : records) {
            String agentId = Events.header(r, EventSigner.KEY_ID_HEADER).replace("-k1", "");
            AgentFixture f = agents.get(agentId).fixture();
            out.addAll(Events.verified(List.of(r), f.keyId(), f.secret()));
        }
        return out;
    }

    /** Agent id → run id of the claims of a job, in the order read. */
    static Map<String, UUID> claimants(UUID job) {
        Map<String, UUID> m = new LinkedHashMap<>();
        claims(events(), job).forEach(c -> m.put(c.agentId(), c.runId()));
        return m;
    }

    static List<JobClaimed> claims(List<Envelope> events, UUID job) {
        return events.stream()
                .map(Envelope::payload)
                .filter(p -> p instanceof JobClaimed c && c.jobId().equals(job))
                .map(JobClaimed.class::cast)
                .toList();
    }

    static List<Envelope> stream(List<Envelope> events, UUID runId) {
        return events.stream()
                .filter(e -> e.streamId().equals("run/" + runId))
                .sorted(Comparator.comparingLong(Envelope::seq))
                .toList();
    }

    static boolean has(UUID runId, Class<?> type) {
        return stream(events(), runId).stream().anyMatch(e -> type.isInstance(e.payload()));
    }

    static List<RunStarted> starts(List<Envelope> events, UUID job) {
        return events.stream()
                .map(Envelope::payload)
                .filter(p -> p instanceof RunStarted s && job.equals(s.jobId()))
                .map(RunStarted.class::cast)
                .toList();
    }

    static Map<String, UUID> awaitClaims(UUID job, String... agentIds) {
        await("claims of job " + job + " by " + List.of(agentIds))
                .atMost(WAIT)
                .until(() -> claimants(job).keySet().containsAll(List.of(agentIds)));
        return claimants(job);
    }

    static List<JsonNode> heartbeats(String agentId) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : tail.records("podium.heartbeats")) {
            if (r.key().equals(agentId)) {
                assertThat(EventSigner.verifyHeartbeat(
                                r.value(),
                                Events.header(r, EventSigner.SIGNATURE_HEADER),
                                agents.get(agentId).fixture().secret()))
                        .isTrue();
                out.add(new ObjectMapper().readTree(r.value()));
            }
        }
        return out;
    }

    // --- the tests

    @Test
    void aJobIsClaimedByBothAgentsOfItsPoolAndRunOnlyByTheOneGrantedIt() throws Exception {
        UUID job = request("a");
        int partition = partitions.get(job);
        Map<String, UUID> claims = awaitClaims(job, "a1", "a2");
        String granted = claims.keySet().iterator().next();
        UUID runId = claims.get(granted);
        send(job, new JobAssigned(job, runId, granted, 1, Instant.now().plusSeconds(60)));
        await().atMost(WAIT).until(() -> has(runId, RunCompleted.class));

        barrier(partition, "b", "b1");
        barrier(partition, "a", "a1", "a2");
        List<Envelope> all = allEvents();
        assertThat(claims(all, job)).extracting(JobClaimed::agentId).containsExactlyInAnyOrder("a1", "a2");
        assertThat(claims(all, job)).allSatisfy(c -> assertThat(c.pool()).isEqualTo("a"));
        List<Envelope> run = stream(all, runId);
        Events.assertCompleteStreams(Map.of("run/" + runId, run));
        assertThat(run.get(0).payload()).isInstanceOf(JobClaimed.class);
        assertThat(run).allSatisfy(e -> assertThat(e.agentId()).isEqualTo(granted));
        assertThat(starts(all, job)).singleElement().satisfies(s -> {
            assertThat(s.runId()).isEqualTo(runId);
            assertThat(s.leaseEpoch()).isEqualTo(1);
            assertThat(s.provenance().agentId()).isEqualTo(granted);
        });
        assertThat(run).last().satisfies(e -> assertThat(e.payload()).isInstanceOf(RunCompleted.class));
        String other = granted.equals("a1") ? "a2" : "a1";
        assertThat(stream(all, claims.get(other)))
                .as("the claim that was not granted")
                .singleElement()
                .satisfies(e -> assertThat(e.payload()).isInstanceOf(JobClaimed.class));
    }

    @Test
    void twoJobsOfAPoolRunAtOnceOneOnEachAgent() throws Exception {
        Path gate = dir.resolve("gate-" + UUID.randomUUID());
        UUID first = requestGated("a", gate);
        Map<String, UUID> firstClaims = awaitClaims(first, "a1", "a2");
        String firstAgent = firstClaims.keySet().iterator().next();
        send(first, new JobAssigned(first, firstClaims.get(firstAgent), firstAgent, 1, null));
        await().atMost(WAIT).until(() -> has(firstClaims.get(firstAgent), RunStarted.class));

        UUID second = requestGated("a", gate);
        String secondAgent = firstAgent.equals("a1") ? "a2" : "a1";
        UUID secondRun = awaitClaims(second, secondAgent).get(secondAgent);
        send(second, new JobAssigned(second, secondRun, secondAgent, 1, null));
        await().atMost(WAIT).until(() -> has(secondRun, RunStarted.class));

        // Both started and neither can finish before the gate opens: they run at the same time.
        assertThat(has(firstClaims.get(firstAgent), RunCompleted.class)).isFalse();
        assertThat(has(secondRun, RunCompleted.class)).isFalse();
        assertThat(claimants(second)).doesNotContainKey(firstAgent);
        Files.writeString(gate, "open");
        await().atMost(WAIT)
                .until(() ->
                        has(firstClaims.get(firstAgent), RunCompleted.class) && has(secondRun, RunCompleted.class));
        assertThat(starts(events(), first))
                .extracting(s -> s.provenance().agentId())
                .containsExactly(firstAgent);
        assertThat(starts(events(), second))
                .extracting(s -> s.provenance().agentId())
                .containsExactly(secondAgent);
    }

    @Test
    void aCancelledJobStopsItsWorkloadAndPublishesRunCancelled() throws Exception {
        UUID job = requestGated("a", dir.resolve("never-" + UUID.randomUUID()));
        Map<String, UUID> claims = awaitClaims(job, "a1", "a2");
        String agent = claims.keySet().iterator().next();
        UUID runId = claims.get(agent);
        send(job, new JobAssigned(job, runId, agent, 1, null));
        await().atMost(WAIT)
                .until(() -> has(runId, RunStarted.class)
                        && Files.exists(pidFile(job))
                        && !Files.readString(pidFile(job)).isBlank());
        long pid = Long.parseLong(Files.readString(pidFile(job)).strip());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);

        send(job, new JobCancelled(job, "wrong driver", "alice"));
        await().atMost(WAIT).until(() -> has(runId, RunCancelled.class));

        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .as("the workload process")
                .isFalse();
        assertThat(stream(events(), runId))
                .last()
                .satisfies(e -> assertThat(e.payload())
                        .isInstanceOfSatisfying(
                                RunCancelled.class,
                                c -> assertThat(c.reason()).contains("job cancelled by alice: wrong driver")));
        assertThat(stream(events(), runId)).noneMatch(e -> e.payload() instanceof RunCompleted);
    }

    @Test
    void aLeaseExpiryOfTheRunningEpochStopsTheJobWhichIsThenClaimedAgain() throws Exception {
        UUID job = requestGated("a", dir.resolve("never-" + UUID.randomUUID()));
        Map<String, UUID> claims = awaitClaims(job, "a1", "a2");
        String agent = claims.keySet().iterator().next();
        UUID runId = claims.get(agent);
        send(job, new JobAssigned(job, runId, agent, 2, null));
        await().atMost(WAIT)
                .until(() -> has(runId, RunStarted.class)
                        && Files.exists(pidFile(job))
                        && !Files.readString(pidFile(job)).isBlank());
        long pid = Long.parseLong(Files.readString(pidFile(job)).strip());

        send(job, new JobLeaseExpired(job, runId, agent, 2));
        await().atMost(WAIT).until(() -> has(runId, RunCancelled.class));

        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                .as("the workload process")
                .isFalse();
        assertThat(stream(events(), runId))
                .last()
                .satisfies(e -> assertThat(e.payload())
                        .isInstanceOfSatisfying(
                                RunCancelled.class, c -> assertThat(c.reason()).contains("lease of epoch 2 expired")));
        // Offered again: both agents of the pool claim it anew, on new run streams.
        await().atMost(WAIT).until(() -> claims(events(), job).size() == 4);
        assertThat(claims(events(), job)).extracting(JobClaimed::runId).doesNotHaveDuplicates();
    }

    @Test
    void duplicatedJobRecordsCauseNoSecondClaimAndNoSecondRun() throws Exception {
        UUID job = UUID.randomUUID();
        jobsOfThisTest.add(job);
        byte[] request = encode(job, new JobRequested(job, null, "a", spec("a", "fast.sh", Map.of())));
        int partition = produce(null, job, request);
        produce(partition, job, request);
        Map<String, UUID> claims = awaitClaims(job, "a1", "a2");
        String granted = claims.keySet().iterator().next();
        byte[] grant = encode(job, new JobAssigned(job, claims.get(granted), granted, 1, null));
        produce(partition, job, grant);
        produce(partition, job, grant);
        produce(partition, job, request);
        await().atMost(WAIT).until(() -> has(claims.get(granted), RunCompleted.class));

        barrier(partition, "a", "a1", "a2");
        List<Envelope> all = allEvents();
        assertThat(claims(all, job)).extracting(JobClaimed::agentId).containsExactlyInAnyOrder("a1", "a2");
        assertThat(starts(all, job)).hasSize(1);
        assertThat(all)
                .filteredOn(
                        e -> e.payload() instanceof RunCompleted && e.streamId().equals("run/" + claims.get(granted)))
                .hasSize(1);
        Events.assertCompleteStreams(Events.byStream(all));
    }

    @Test
    void heartbeatsDuringAJobCarryItsJobRunAndLeaseEpoch() throws Exception {
        Path gate = dir.resolve("gate-" + UUID.randomUUID());
        UUID job = requestGated("a", gate);
        Map<String, UUID> claims = awaitClaims(job, "a1", "a2");
        String agent = claims.keySet().iterator().next();
        UUID runId = claims.get(agent);
        send(job, new JobAssigned(job, runId, agent, 3, null));

        await().atMost(WAIT)
                .until(() -> heartbeats(agent).stream()
                                .filter(hb ->
                                        hb.path("current_job_id").asText("").equals(job.toString()))
                                .count()
                        >= 2);
        List<JsonNode> during = heartbeats(agent).stream()
                .filter(hb -> hb.path("current_job_id").asText("").equals(job.toString()))
                .toList();
        assertThat(during).allSatisfy(hb -> {
            assertThat(hb.path("state").asText()).isEqualTo("running");
            assertThat(hb.path("current_run_id").asText()).isEqualTo(runId.toString());
            assertThat(hb.path("lease_epoch").asInt()).isEqualTo(3);
            assertThat(hb.path("pool").asText()).isEqualTo("a");
        });

        Files.writeString(gate, "open");
        await().atMost(WAIT).until(() -> has(runId, RunCompleted.class));
        await().atMost(WAIT).until(() -> {
            List<JsonNode> beats = heartbeats(agent);
            JsonNode last = beats.get(beats.size() - 1);
            return last.path("state").asText().equals("idle")
                    && (last.path("current_job_id").isNull()
                            || last.path("current_job_id").isMissingNode());
        });
    }

    @Test
    void anAgentWithTwoSlotsRunsTwoJobsAtOnceAndRenewsBothLeases() throws Exception {
        Agent twoSlots = start("d1", "d", 2);
        Path gate = dir.resolve("gate-" + UUID.randomUUID());
        try {
            UUID first = requestGated("d", gate);
            UUID second = requestGated("d", gate);
            UUID firstRun = awaitClaims(first, "d1").get("d1");
            UUID secondRun = awaitClaims(second, "d1").get("d1");
            send(first, new JobAssigned(first, firstRun, "d1", 1, null));
            send(second, new JobAssigned(second, secondRun, "d1", 5, null));

            await("heartbeats naming both jobs").atMost(WAIT).until(() -> {
                List<JsonNode> beats = heartbeats("d1");
                return beats.stream()
                                .anyMatch(hb ->
                                        hb.path("current_run_id").asText("").equals(firstRun.toString())
                                                && hb.path("lease_epoch").asInt() == 1)
                        && beats.stream()
                                .anyMatch(hb ->
                                        hb.path("current_run_id").asText("").equals(secondRun.toString())
                                                && hb.path("lease_epoch").asInt() == 5);
            });
            await().atMost(WAIT).until(() -> has(firstRun, RunStarted.class) && has(secondRun, RunStarted.class));
            assertThat(has(firstRun, RunCompleted.class) || has(secondRun, RunCompleted.class))
                    .isFalse();
            Files.writeString(gate, "open");
            await().atMost(WAIT).until(() -> has(firstRun, RunCompleted.class) && has(secondRun, RunCompleted.class));
        } finally {
            Files.writeString(gate, "open");
            twoSlots.stop();
        }
    }

    @Test
    void aFreshAgentReadsTheWholeTopicAndClaimsOnlyJobsStillOpen() throws Exception {
        UUID granted = request("c");
        int grantedPartition = send(granted, new JobAssigned(granted, UUID.randomUUID(), "gone-agent", 1, null));
        UUID cancelled = request("c");
        int cancelledPartition = send(cancelled, new JobCancelled(cancelled, "changed plans", "alice"));
        UUID open = request("c");

        Agent fresh = start("c1", "c", 3);
        try {
            awaitClaims(open, "c1");
            barrier(grantedPartition, "c", "c1");
            barrier(cancelledPartition, "c", "c1");
            List<Envelope> all = allEvents();
            assertThat(claims(all, open)).extracting(JobClaimed::agentId).containsExactly("c1");
            assertThat(claims(all, granted)).isEmpty();
            assertThat(claims(all, cancelled)).isEmpty();
        } finally {
            send(open, new JobCancelled(open, "end of test", "test"));
            fresh.stop();
        }
    }

    /** Log lines of one daemon, prefixed with its id. */
    static PrintStream prefixed(String agentId) {
        return new PrintStream(
                new OutputStream() {
                    private final StringBuilder line = new StringBuilder();

                    @Override
                    public synchronized void write(int b) {
                        if (b == '\n') {
                            System.err.println("[" + agentId + "] " + line);
                            line.setLength(0);
                        } else {
                            line.append((char) b);
                        }
                    }
                },
                true,
                StandardCharsets.UTF_8);
    }
}
