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
import dev.podium.events.job.JobRequested;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.WorkloadAllowlist;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunFailed;
import dev.podium.events.secret.JobSecrets;
import dev.podium.events.secret.SealedSecrets;
import dev.podium.events.sign.EventSigner;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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

/** The daemon opens the secrets of its own grant with its key, and runs nothing on secrets sealed for another. */
class GrantSecretsTest {

    private static final String ME = "agent-s";
    private static final String KEY_ID = "pk_mine";
    private final byte[] mySecret = EventSigner.secretBytes(EventSigner.newSecret());

    @TempDir
    Path dir;

    private Journal journal;
    private JobDispatcher dispatcher;

    @BeforeEach
    void setUp() {
        journal = new Journal(dir.resolve("journal"), 10_000_000);
        EventSink sink = new EventSink(journal, ME, KEY_ID, mySecret, Clock.systemUTC());
        Fingerprint fp = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(), null, List.of());
        dispatcher = new JobDispatcher(
                sink,
                "a",
                new WorkloadAllowlist(WorkloadAllowlist.DEFAULT.adapters(), List.of("sh")),
                1,
                Duration.ofMinutes(10),
                () -> new JobRunner(
                        sink, fp, dir.resolve("work"), "/usr/bin/python3", Progress.silent(), new ToolRunner(), 100),
                () -> {},
                new PrintStream(java.io.OutputStream.nullOutputStream()));
        dispatcher.caughtUp();
    }

    @AfterEach
    void tearDown() {
        dispatcher.shutdown(Duration.ofSeconds(10));
    }

    @Test
    void itsOwnGrantsSecretsReachTheWorkloadAndNeverItsEvents() throws Exception {
        Path seen = dir.resolve("seen");
        UUID job = UUID.randomUUID();
        UUID run = claim(job, seen);
        String value = "tok-" + UUID.randomUUID();
        accept(
                UUID.randomUUID(),
                new JobAssigned(
                        job,
                        run,
                        ME,
                        1,
                        null,
                        JobSecrets.seal(KEY_ID, mySecret, job, run, 1, Map.of("PRIVATE_VALUE", value))));
        await().atMost(Duration.ofSeconds(30)).until(() -> ended(run));
        assertThat(events(run)).anySatisfy(e -> assertThat(e.payload()).isInstanceOf(RunCompleted.class));
        assertThat(Files.readString(seen)).isEqualTo(value);
        assertThat(journal.pending())
                .allSatisfy(e -> assertThat(new String(e.value(), StandardCharsets.UTF_8))
                        .doesNotContain(value));
    }

    @Test
    void secretsSealedForAnotherKeyOrGrantFailTheRunWithoutStartingIt() throws Exception {
        byte[] otherSecret = EventSigner.secretBytes(EventSigner.newSecret());
        for (boolean otherKey : List.of(true, false)) {
            Path seen = dir.resolve("seen-" + otherKey);
            UUID job = UUID.randomUUID();
            UUID run = claim(job, seen);
            SealedSecrets sealed = otherKey
                    ? JobSecrets.seal(KEY_ID, otherSecret, job, run, 1, Map.of("PRIVATE_VALUE", "x"))
                    : JobSecrets.seal(KEY_ID, mySecret, job, UUID.randomUUID(), 1, Map.of("PRIVATE_VALUE", "x"));
            accept(UUID.randomUUID(), new JobAssigned(job, run, ME, 1, null, sealed));
            await().atMost(Duration.ofSeconds(30)).until(() -> ended(run));
            assertThat(events(run))
                    .filteredOn(e -> e.payload() instanceof RunFailed)
                    .singleElement()
                    .satisfies(
                            e -> assertThat(((RunFailed) e.payload()).phase()).isEqualTo("setup"));
            assertThat(seen).as("the workload never ran").doesNotExist();
        }
    }

    /** Offers a job whose workload writes $PRIVATE_VALUE to {@code seen}; the run id the dispatcher claimed it with. */
    private UUID claim(UUID job, Path seen) throws Exception {
        Path sh = dir.resolve("w-" + job + ".sh");
        Files.writeString(
                sh,
                "printf '%s' \"$PRIVATE_VALUE\" > " + seen + "\n"
                        + "echo \"echoed $PRIVATE_VALUE\"\n"
                        + "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"train_samples_per_second\", \"value\": 4.0}'\n");
        JobSpec spec = new JobSpec(
                "secret",
                "command",
                List.of("sh", sh.toString()),
                "jsonl",
                Map.of(),
                Map.of(),
                1,
                0,
                60,
                Map.of(),
                1,
                1,
                "a");
        accept(UUID.randomUUID(), new JobRequested(job, null, "a", spec));
        return events(null).stream()
                .map(Envelope::payload)
                .filter(p -> p instanceof JobClaimed c && c.jobId().equals(job))
                .map(p -> ((JobClaimed) p).runId())
                .findFirst()
                .orElseThrow();
    }

    private boolean ended(UUID run) {
        return dispatcher.runningCount() == 0
                && events(run).stream()
                        .anyMatch(e -> e.payload() instanceof RunCompleted || e.payload() instanceof RunFailed);
    }

    private List<Envelope> events(UUID run) {
        EventCodec codec = new EventCodec();
        return journal.pending().stream()
                .map(JournalEntry::value)
                .map(codec::decode)
                .map(d -> ((Decoded.Accepted) d).envelope())
                .filter(e -> run == null || e.streamId().equals("run/" + run))
                .toList();
    }

    private void accept(UUID eventId, dev.podium.events.job.JobEvent event) {
        dispatcher.accept(eventId, event, dev.podium.agent.support.CommandSide.epochOf(event));
    }
}
