package dev.podium.agent.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.agent.journal.Journal;
import dev.podium.agent.journal.JournalEntry;
import dev.podium.agent.publish.EventSink;
import dev.podium.agent.support.Resources;
import dev.podium.events.Envelope;
import dev.podium.events.codec.Decoded;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import dev.podium.events.sign.EventSigner;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run through the real JobRunner and ToolRunner with a fake {@code nvidia-smi} first on PATH. For a second in the
 * middle of each repetition (the measured window) the fake prints the recorded Blackwell throttle query with a hardware thermal slowdown on device
 * 1, otherwise the recorded power query (see src/test/resources/detect/SOURCES.md): RunStarted names both devices with
 * their limit, the throttle series holds the slowdown in the window, and not_throttled fails saying where. A fake that
 * hangs costs each query its timeout and is killed: the run still completes, without devices or throttle samples.
 */
class VendorToolRunTest {

    @TempDir
    Path dir;

    private Journal journal;

    @Test
    void aThermalSlowdownDuringTheMeasuredWindowIsRecordedPerDeviceAndFailsTheRun() throws Exception {
        Files.writeString(dir.resolve("power.csv"), Resources.text("detect/nvidia-smi-rtxpro6000-x2-power.csv"));
        Files.writeString(
                dir.resolve("hot.csv"), hotOnDevice1(Resources.text("detect/nvidia-smi-rtxpro6000-x2-throttle.csv")));
        Files.writeString(dir.resolve("sample.csv"), Resources.text("detect/nvidia-smi-h200-x1-sample.csv"));
        fakeNvidiaSmi("""
                case "$1" in
                  --query-gpu=index,uuid,*) if [ -e %1$s/hot ]; then cat %1$s/hot.csv; else cat %1$s/power.csv; fi ;;
                  --query-gpu=index,utilization.gpu,*) cat %1$s/sample.csv ;;
                esac
                """.formatted(dir));
        List<Envelope> events = run("sleep 0.5\ntouch %1$s/hot\nsleep 1\nrm %1$s/hot\n".formatted(dir));

        assertThat(payload(events, RunStarted.class).devices())
                .extracting(AcceleratorDevice::index, AcceleratorDevice::powerLimitWatts)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, 600.0), org.assertj.core.groups.Tuple.tuple(1, 600.0));
        List<Sample> throttle = series(events, SeriesKind.THROTTLE_REASONS).stream()
                .filter(s -> s.repetition() != null)
                .toList();
        assertThat(throttle)
                .filteredOn(s -> s.device() == 1)
                .isNotEmpty()
                .allSatisfy(s -> assertThat(ThrottleReason.of((long) s.value()))
                        .containsExactlyInAnyOrder(ThrottleReason.SW_POWER_CAP, ThrottleReason.HW_THERMAL_SLOWDOWN));
        assertThat(throttle)
                .filteredOn(s -> s.device() == 0)
                .allSatisfy(s ->
                        assertThat(ThrottleReason.of((long) s.value())).containsExactly(ThrottleReason.SW_POWER_CAP));
        assertThat(series(events, SeriesKind.TEMPERATURE))
                .extracting(Sample::value)
                .contains(25.0);
        assertThat(notThrottled(events)).hasValueSatisfying(c -> {
            assertThat(c.passed()).isFalse();
            assertThat(c.detail()).startsWith("hardware thermal slowdown on device 1 in ");
        });
    }

    @Test
    void aToolThatHangsCostsItsTimeoutsAndTheRunStillCompletes() throws Exception {
        fakeNvidiaSmi("exec sleep 600");
        List<Envelope> events = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> run("true\n"));

        assertThat(payload(events, RunStarted.class).devices()).isNull();
        assertThat(series(events, SeriesKind.THROTTLE_REASONS)).isEmpty();
        assertThat(notThrottled(events)).isEmpty();
        assertThat(ProcessHandle.current().descendants())
                .noneSatisfy(p -> assertThat(p.info().commandLine().orElse("")).contains("sleep 600"));
    }

    /** The recorded throttle query with device 1's hardware thermal slowdown active, as a hot device would print it. */
    private static String hotOnDevice1(String recorded) {
        String[] lines = recorded.split("\n", -1);
        lines[2] = lines[2].replaceFirst(
                "Not Active, Not Active, Not Active, Active", "Not Active, Active, Not Active, Active");
        return String.join("\n", lines);
    }

    private void fakeNvidiaSmi(String body) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path tool = bin.resolve("nvidia-smi");
        Files.writeString(tool, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwx------"));
    }

    /** Runs a command job of two repetitions whose workload runs {@code body} and reports one metric. */
    private List<Envelope> run(String body) throws Exception {
        journal = new Journal(dir.resolve("journal"), 10_000_000);
        EventSink sink = new EventSink(
                journal, "unit-agent", "k1", EventSigner.secretBytes(EventSigner.newSecret()), Clock.systemUTC());
        Accelerator gpu = new Accelerator(
                "NVIDIA",
                "NVIDIA RTX PRO 6000 Blackwell Server Edition",
                "nvidia-rtx-pro-6000",
                1L << 36,
                2,
                2,
                null,
                "570.172.08",
                null,
                null);
        Fingerprint fp = new Fingerprint(new HostDetector(new ToolRunner()).host(), List.of(gpu), null, List.of());
        ToolRunner tools = new ToolRunner(dir.resolve("bin") + File.pathSeparator + System.getenv("PATH"));
        JobRunner runner =
                new JobRunner(sink, fp, dir.resolve("work"), "/usr/bin/python3", Progress.silent(), tools, 100);
        Path sh = dir.resolve("workload.sh");
        Files.writeString(sh, body + "echo '{\"podium\": 1, \"type\": \"metric\", \"name\": \"t\", \"value\": 2.5}'\n");
        runner.run(new JobSpecReader().read("""
                benchmark: vendor-tool-probe
                adapter: command
                command: ["sh", "%s"]
                parser: jsonl
                repetitions: 2
                timeout_seconds: 60
                """.formatted(sh)));
        EventCodec codec = new EventCodec();
        return journal.pending().stream()
                .map(JournalEntry::value)
                .map(codec::decode)
                .map(d -> ((Decoded.Accepted) d).envelope())
                .toList();
    }

    private static <T> T payload(List<Envelope> events, Class<T> type) {
        return events.stream()
                .map(Envelope::payload)
                .filter(type::isInstance)
                .map(type::cast)
                .findFirst()
                .orElseThrow();
    }

    private static List<Sample> series(List<Envelope> events, SeriesKind kind) {
        return events.stream()
                .map(Envelope::payload)
                .filter(p -> p instanceof MetricSampled m && m.series() == kind)
                .flatMap(p -> ((MetricSampled) p).samples().stream())
                .toList();
    }

    private static Optional<ValidityCheck> notThrottled(List<Envelope> events) {
        return payload(events, RunCompleted.class).validity().stream()
                .filter(c -> c.name().equals("not_throttled"))
                .findFirst();
    }
}
