package dev.podium.agent.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.agent.publish.EventSink;
import dev.podium.events.StreamId;
import dev.podium.events.sign.EventSigner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A granted job's secret environment reaches the workload, and a workload that echoes it (in clear, in JSON, in a URL,
 * in a header) publishes nothing that contains it: not in the journal, which is all that leaves the agent, nor in the
 * agent's own output.
 */
class SecretEnvironmentTest {

    private static final String SECRET = "s3cr3t-" + UUID.randomUUID();

    @TempDir
    Path dir;

    private Journal journal;
    private EventSink sink;
    private JobRunner runner;
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() {
        journal = new Journal(dir.resolve("journal"), 10_000_000);
        sink = new EventSink(
                journal, "unit-agent", "k1", EventSigner.secretBytes(EventSigner.newSecret()), Clock.systemUTC());
        Fingerprint fp = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(), null, List.of());
        runner = new JobRunner(
                sink,
                fp,
                dir.resolve("work"),
                "/usr/bin/python3",
                new Progress(new PrintStream(console, true, StandardCharsets.UTF_8), false),
                new ToolRunner(),
                100);
    }

    @Test
    void aWorkloadEchoingItsSecretPublishesNoTraceOfIt() throws Exception {
        Path seen = dir.resolve("seen");
        String echo = """
                printf '%%s' "$MODEL_ACCESS" > %s
                echo "the value is $MODEL_ACCESS"
                echo "{\\"password\\": \\"$MODEL_ACCESS\\"}" >&2
                echo "GET https://bot:$MODEL_ACCESS@hub.example/x" >&2
                echo "{\\"podium\\": 1, \\"type\\": \\"metric\\", \\"name\\": \\"t\\", \\"value\\": 2.5}"
                """.formatted(seen);
        for (String tailOf : List.of("exit 3\n", "")) {
            runGranted(echo + tailOf);
        }
        assertThat(Files.readString(seen)).as("the workload got its secret").isEqualTo(SECRET);
        List<JournalEntry> published = journal.pending();
        assertThat(published).isNotEmpty();
        for (JournalEntry e : published) {
            assertThat(new String(e.value(), StandardCharsets.UTF_8)).doesNotContain(SECRET);
        }
        assertThat(published.stream().map(e -> new String(e.value(), StandardCharsets.UTF_8)))
                .anySatisfy(v -> assertThat(v).contains("the value is ***"));
        assertThat(console.toString(StandardCharsets.UTF_8)).doesNotContain(SECRET);
    }

    private void runGranted(String script) throws Exception {
        Path sh = dir.resolve("w-" + UUID.randomUUID() + ".sh");
        Files.writeString(sh, script);
        JobDefinition job = new JobSpecReader().read("""
                benchmark: secret-probe
                adapter: command
                command: ["sh", "%s"]
                parser: jsonl
                repetitions: 1
                timeout_seconds: 30
                """.formatted(sh));
        UUID runId = UUID.randomUUID();
        runner.runGranted(
                job, sink.stream(StreamId.run(runId)), runId, UUID.randomUUID(), 1, Map.of("MODEL_ACCESS", SECRET));
    }
}
