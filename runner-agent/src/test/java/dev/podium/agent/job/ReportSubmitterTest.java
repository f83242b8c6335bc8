package dev.podium.agent.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.agent.config.Redactor;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.agent.parse.Parsers;
import dev.podium.agent.publish.EventSink;
import dev.podium.events.sign.EventSigner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code submit} of a report in which nothing parses publishes its tail, and only redacted. */
class ReportSubmitterTest {

    @TempDir
    Path dir;

    @Test
    void theTailOfAnUnparsableReportIsPublishedRedacted() {
        Journal journal = new Journal(dir.resolve("journal"), 10_000_000);
        EventSink sink = new EventSink(
                journal, "submitter", "k1", EventSigner.secretBytes(EventSigner.newSecret()), Clock.systemUTC());
        Fingerprint fp = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(), null, List.of());
        String secret = "s3cr3t-in-the-environment";
        String rest = "{\"db_password\": \"hunter2-in-json\"}\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.p.s\n"
                + "push to https://ci:ci-pass-77@registry.example/x\nci token " + secret + "\n";
        // The published tail (4000 characters) starts in the middle of the secret's first occurrence.
        String report = "x".repeat(6000) + secret + "y".repeat(3990 - rest.length()) + rest;
        RunOutcome outcome = new ReportSubmitter(
                        sink, fp, Redactor.of(Map.of("CI_DEPLOY_TOKEN", "s3cr3t-in-the-environment"), List.of()))
                .submit(
                        Parsers.byFormat("jsonl").orElseThrow(),
                        List.of(report),
                        List.of("report.txt"),
                        new ReportSubmitter.Description("b", "1", null, null, null, null, 1, new TreeMap<>()));
        assertThat(outcome.status()).isEqualTo(RunOutcome.Status.FAILED);
        String published = String.join(
                "\n",
                journal.pending().stream()
                        .map(JournalEntry::value)
                        .map(v -> new String(v, StandardCharsets.UTF_8))
                        .toList());
        assertThat(published)
                .contains("ci token ***", "Bearer ***", "ci:***@registry")
                .doesNotContain("ironment", "hunter2-in-json", "eyJhbGciOiJIUzI1NiJ9", "ci-pass-77");
    }
}
