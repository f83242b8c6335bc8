package dev.podium.agent.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.job.JobRunner;
import dev.podium.agent.job.Progress;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.agent.publish.EventSink;
import dev.podium.events.Envelope;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.WorkloadAllowlist;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunStarted;
import dev.podium.events.sign.EventSigner;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's decisions on podium.jobs, fed event by event without Kafka: what it claims, when it starts, what stops a
 * run. Its events are read back from its journal.
 */
class JobDispatcherTest {

    static final String ME = "agent-1";
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private Journal journal;
    private JobDispatcher dispatcher;
    private Path gate;

    @BeforeEach
    void setUp() {
        journal = new Journal(dir.resolve("journal"), 10_000_000);
        gate = dir.resolve("gate");
        dispatcher = dispatcher(1, Duration.ofMinutes(10));
    }

    @AfterEach
    void tearDown() {
        dispatcher.shutdown(Duration.ofSeconds(10));
    }

    /** The scripts of these jobs run with sh (and one with touch); nothing else. */
    private static final WorkloadAllowlist SCRIPTS =
            new WorkloadAllowlist(WorkloadAllowlist.DEFAULT.adapters(), List.of("sh", "touch"));

    private JobDispatcher dispatcher(int slots, Duration claimTimeout) {
        return dispatcher(slots, claimTimeout, SCRIPTS);
    }

    private JobDispatcher dispatcher(int slots, Duration claimTimeout, WorkloadAllowlist allowlist) {
        EventSink sink =
                new EventSink(journal, ME, "k1", EventSigner.secretBytes(EventSigner.newSecret()), Clock.systemUTC());
        Fingerprint fp = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(), null, List.of());
        return new JobDispatcher(
                sink,
                "a",
                allowlist,
                slots,
                claimTimeout,
                () -> new JobRunner(
                                sink,
                                fp,
                                dir.resolve("work"),
                                "/usr/bin/python3",
                                Progress.silent(),
                                new ToolRunner(),
                                100)
                        .allowingEnvironment(List.of("GATE")),
                () -> {},
                new PrintStream(java.io.OutputStream.nullOutputStream()));
    }

    /** A job that waits for the gate file, then reports one metric. */
    private JobSpec gatedSpec() throws Exception {
        Path sh = dir.resolve("gated.sh");
        Files.writeString(
                sh,
                "while [ ! -f \"$GATE\" ]; do sleep 0.05; done\n"
                        + "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"train_samples_per_second\", \"value\": 4.0}'\n");
        return new JobSpec(
                "gated",
                "command",
                List.of("sh", sh.toString()),
                "jsonl",
                Map.of(),
                Map.of(),
                1,
                0,
                120,
                Map.of("GATE", gate.toString()),
                1,
                1,
                "a");
    }

    private List<Envelope> events() {
        EventCodec codec = new EventCodec();
        return journal.pending().stream()
                .map(JournalEntry::value)
                .map(codec::decode)
                .map(d -> {
                    assertThat(d).isInstanceOf(Decoded.Accepted.class);
                    return ((Decoded.Accepted) d).envelope();
                })
                .toList();
    }

    private List<JobClaimed> claims(UUID jobId) {
        return events().stream()
                .map(Envelope::payload)
                .filter(p -> p instanceof JobClaimed c && c.jobId().equals(jobId))
                .map(JobClaimed.class::cast)
                .toList();
    }

    private List<Envelope> run(UUID runId) {
        return events().stream()
                .filter(e -> e.streamId().equals("run/" + runId))
                .toList();
    }

    /** Applies a record as the feed does once its command signature verified: for its epoch (1 for a first request). */
    private void accept(UUID eventId, dev.podium.events.job.JobEvent event) {
        dispatcher.accept(eventId, event, dev.podium.agent.support.CommandSide.epochOf(event));
    }

    private UUID request(String pool) throws Exception {
        UUID job = UUID.randomUUID();
        accept(UUID.randomUUID(), new JobRequested(job, null, pool, gatedSpec()));
        return job;
    }

    @Test
    void claimsNothingBeforeCatchingUpAndThenOnlyJobsStillOpenInItsPool() throws Exception {
        dispatcher = dispatcher(5, Duration.ofMinutes(10));
        UUID assigned = request("a");
        accept(UUID.randomUUID(), new JobAssigned(assigned, UUID.randomUUID(), "other", 1, null));
        UUID cancelled = request("a");
        accept(UUID.randomUUID(), new JobCancelled(cancelled, "not needed", "admin"));
        UUID otherPool = request("b");
        UUID expired = request("a");
        UUID expiredRun = UUID.randomUUID();
        accept(UUID.randomUUID(), new JobAssigned(expired, expiredRun, "other", 1, null));
        accept(UUID.randomUUID(), new JobLeaseExpired(expired, expiredRun, "other", 1));
        // The command side also offers the expired job again with a request of the next epoch: the same offer, one
        // claim.
        dispatcher.accept(UUID.randomUUID(), new JobRequested(expired, null, "a", gatedSpec()), 2);
        UUID open = request("a");
        assertThat(events()).isEmpty();

        dispatcher.caughtUp();

        assertThat(events()).extracting(e -> ((JobClaimed) e.payload()).jobId()).containsExactly(expired, open);
        assertThat(events()).allSatisfy(e -> {
            assertThat(e.seq()).isEqualTo(1);
            assertThat(e.streamId()).isEqualTo("run/" + ((JobClaimed) e.payload()).runId());
            assertThat(((JobClaimed) e.payload()).agentId()).isEqualTo(ME);
            assertThat(((JobClaimed) e.payload()).pool()).isEqualTo("a");
        });
        assertThat(claims(assigned)).isEmpty();
        assertThat(claims(cancelled)).isEmpty();
        assertThat(claims(otherPool)).isEmpty();
    }

    @Test
    void aDuplicatedRequestOrGrantClaimsOnceAndRunsOnce() throws Exception {
        dispatcher.caughtUp();
        UUID job = UUID.randomUUID();
        UUID requestId = UUID.randomUUID();
        JobRequested request = new JobRequested(job, null, "a", gatedSpec());
        accept(requestId, request);
        accept(requestId, request);
        assertThat(claims(job)).hasSize(1);
        UUID runId = claims(job).get(0).runId();

        UUID grantId = UUID.randomUUID();
        JobAssigned grant = new JobAssigned(job, runId, ME, 1, null);
        accept(grantId, grant);
        accept(grantId, grant);
        accept(requestId, request); // a late copy of the request must not offer the job again
        Files.writeString(gate, "");
        await().atMost(WAIT)
                .until(() -> dispatcher.runningCount() == 0
                        && run(runId).stream().anyMatch(e -> e.payload() instanceof RunCompleted));

        assertThat(claims(job)).hasSize(1);
        List<Envelope> stream = run(runId);
        assertThat(stream)
                .extracting(Envelope::seq)
                .containsExactly(java.util.stream.LongStream.rangeClosed(1, stream.size())
                        .boxed()
                        .toArray(Long[]::new));
        assertThat(stream.get(0).payload()).isInstanceOf(JobClaimed.class);
        assertThat(stream)
                .filteredOn(e -> e.payload() instanceof RunStarted)
                .singleElement()
                .satisfies(e -> {
                    RunStarted started = (RunStarted) e.payload();
                    assertThat(started.jobId()).isEqualTo(job);
                    assertThat(started.leaseEpoch()).isEqualTo(1);
                });
        assertThat(stream).filteredOn(e -> e.payload() instanceof RunCompleted).hasSize(1);
    }

    @Test
    void startsOnlyOnAGrantOfItsOwnRunAndForgetsAClaimGrantedToAnother() throws Exception {
        dispatcher.caughtUp();
        UUID first = request("a");
        UUID second = request("a");
        assertThat(claims(first)).hasSize(1);
        assertThat(claims(second)).as("one slot: the unanswered claim holds it").isEmpty();

        accept(UUID.randomUUID(), new JobAssigned(first, UUID.randomUUID(), ME, 1, null)); // a run it never claimed
        accept(UUID.randomUUID(), new JobAssigned(first, UUID.randomUUID(), "other", 2, null));

        assertThat(dispatcher.runningCount()).isZero();
        assertThat(events()).noneMatch(e -> e.payload() instanceof RunStarted);
        assertThat(claims(second))
                .as("the claim granted to another frees the slot")
                .hasSize(1);
    }

    @Test
    void anUnansweredClaimFreesItsSlotAfterTheClaimTimeout() throws Exception {
        dispatcher = dispatcher(1, Duration.ZERO);
        dispatcher.caughtUp();
        UUID first = request("a");
        UUID second = request("a");
        dispatcher.tick();
        assertThat(claims(first)).hasSize(1);
        assertThat(claims(second)).hasSize(1);
    }

    @Test
    void aLeaseExpiryOfAnotherEpochLeavesTheRunAloneAndOneOfItsEpochStopsIt() throws Exception {
        dispatcher.caughtUp();
        UUID job = request("a");
        UUID runId = claims(job).get(0).runId();
        accept(UUID.randomUUID(), new JobAssigned(job, runId, ME, 2, null));
        await().atMost(WAIT).until(() -> run(runId).stream().anyMatch(e -> e.payload() instanceof RunStarted));

        accept(UUID.randomUUID(), new JobLeaseExpired(job, runId, ME, 1));
        accept(UUID.randomUUID(), new JobLeaseExpired(job, UUID.randomUUID(), ME, 2));
        assertThat(dispatcher.current()).contains(new JobDispatcher.Current(job, runId, 2));
        assertThat(run(runId)).noneMatch(e -> e.payload() instanceof RunCancelled);

        accept(UUID.randomUUID(), new JobLeaseExpired(job, runId, ME, 2));
        await().atMost(WAIT).until(() -> dispatcher.runningCount() == 0);
        assertThat(run(runId))
                .last()
                .satisfies(e -> assertThat(e.payload())
                        .isInstanceOfSatisfying(
                                RunCancelled.class, c -> assertThat(c.reason()).contains("lease of epoch 2 expired")));
        assertThat(claims(job)).as("the expired job is offered again").hasSize(2);
    }

    @Test
    void aCancelStopsTheRunningJobAndAGrantToAnotherRunStopsItToo() throws Exception {
        dispatcher.caughtUp();
        UUID job = request("a");
        UUID runId = claims(job).get(0).runId();
        accept(UUID.randomUUID(), new JobAssigned(job, runId, ME, 1, null));
        accept(UUID.randomUUID(), new JobCancelled(job, "wrong pool", "alice"));
        await().atMost(WAIT).until(() -> dispatcher.runningCount() == 0);
        assertThat(run(runId))
                .last()
                .satisfies(e -> assertThat(e.payload())
                        .isInstanceOfSatisfying(
                                RunCancelled.class,
                                c -> assertThat(c.reason()).contains("job cancelled by alice: wrong pool")));
        assertThat(claims(job)).as("a cancelled job is never offered again").hasSize(1);

        UUID next = request("a");
        UUID nextRun = claims(next).get(0).runId();
        accept(UUID.randomUUID(), new JobAssigned(next, nextRun, ME, 1, null));
        accept(UUID.randomUUID(), new JobAssigned(next, UUID.randomUUID(), "other", 2, null));
        await().atMost(WAIT).until(() -> dispatcher.runningCount() == 0);
        assertThat(run(nextRun))
                .last()
                .satisfies(e -> assertThat(e.payload())
                        .isInstanceOfSatisfying(
                                RunCancelled.class,
                                c -> assertThat(c.reason())
                                        .contains("granted to run")
                                        .contains("of agent other (epoch 2)")));
    }

    @Test
    void aGrantOfARunThatRanOrOfAnEpochNotNewerNeverRunsAgainWhateverItsEventId() throws Exception {
        dispatcher.caughtUp();
        UUID job = request("a");
        UUID runId = claims(job).get(0).runId();
        Files.writeString(gate, "");
        accept(UUID.randomUUID(), new JobAssigned(job, runId, ME, 1, null));
        await().atMost(WAIT)
                .until(() -> dispatcher.runningCount() == 0
                        && run(runId).stream().anyMatch(e -> e.payload() instanceof RunCompleted));

        accept(UUID.randomUUID(), new JobAssigned(job, runId, ME, 1, null));
        accept(UUID.randomUUID(), new JobAssigned(job, runId, ME, 2, null));

        assertThat(dispatcher.runningCount()).isZero();
        assertThat(run(runId))
                .filteredOn(e -> e.payload() instanceof RunStarted)
                .hasSize(1);
    }

    @Test
    void aRequestThatChangesTheSpecOfAClaimedJobIsRefusedAndTheGrantRunsWhatWasClaimed() throws Exception {
        dispatcher.caughtUp();
        UUID job = request("a");
        UUID runId = claims(job).get(0).runId();
        Path marker = dir.resolve("changed-spec-ran");
        JobSpec changed = new JobSpec(
                "gated",
                "command",
                List.of("touch", marker.toString()),
                "jsonl",
                Map.of(),
                Map.of(),
                1,
                0,
                120,
                Map.of(),
                1,
                1,
                "a");
        dispatcher.accept(UUID.randomUUID(), new JobRequested(job, null, "a", changed), 2);
        Files.writeString(gate, "");
        accept(UUID.randomUUID(), new JobAssigned(job, runId, ME, 2, null));
        await().atMost(WAIT)
                .until(() -> dispatcher.runningCount() == 0
                        && run(runId).stream().anyMatch(e -> e.payload() instanceof RunCompleted));

        assertThat(marker).doesNotExist();
        assertThat(claims(job)).as("the refused request is no new offer").hasSize(1);
    }

    @Test
    void aSignedGrantOfACommandItsOwnAllowlistRefusesNeverRunsAndFailsItsRunWithTheReason() throws Exception {
        dispatcher.shutdown(Duration.ofSeconds(10));
        dispatcher = dispatcher(1, Duration.ofMinutes(10), WorkloadAllowlist.DEFAULT);
        dispatcher.caughtUp();
        Path marker = dir.resolve("refused-command-ran");
        UUID job = UUID.randomUUID();
        JobSpec touch = new JobSpec(
                "refused",
                "command",
                List.of("touch", marker.toString()),
                "jsonl",
                Map.of(),
                Map.of(),
                1,
                0,
                120,
                Map.of(),
                1,
                1,
                "a");
        accept(UUID.randomUUID(), new JobRequested(job, null, "a", touch));
        UUID runId = claims(job).get(0).runId();
        accept(UUID.randomUUID(), new JobAssigned(job, runId, ME, 1, null));

        await().atMost(WAIT).until(() -> run(runId).stream().anyMatch(e -> e.payload() instanceof RunFailed));
        assertThat(run(runId))
                .extracting(Envelope::payload)
                .noneMatch(p -> p instanceof RunStarted)
                .filteredOn(p -> p instanceof RunFailed)
                .singleElement()
                .isInstanceOfSatisfying(RunFailed.class, f -> {
                    assertThat(f.phase()).isEqualTo("setup");
                    assertThat(f.reason())
                            .isEqualTo("refused by this agent: pool a allows no command jobs, so not 'touch' (allowed:"
                                    + " adapters [inference, mamf, reference], no commands)");
                });
        assertThat(dispatcher.runningCount()).isZero();
        assertThat(marker).doesNotExist();
    }

    @Test
    void anOfferOfAnEpochAlreadyGrantedIsNoNewOffer() throws Exception {
        dispatcher = dispatcher(2, Duration.ofMinutes(10));
        dispatcher.caughtUp();
        UUID job = request("a");
        accept(UUID.randomUUID(), new JobAssigned(job, UUID.randomUUID(), "other", 3, null));
        dispatcher.accept(UUID.randomUUID(), new JobRequested(job, null, "a", gatedSpec()), 3);
        dispatcher.accept(UUID.randomUUID(), new JobRequested(job, null, "a", gatedSpec()), 2);
        assertThat(claims(job)).hasSize(1);

        dispatcher.accept(UUID.randomUUID(), new JobRequested(job, null, "a", gatedSpec()), 4);
        assertThat(claims(job)).as("the next epoch is a new offer").hasSize(2);
    }
}
