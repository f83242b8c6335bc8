package dev.podium.agent.detect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A vendor tool that hangs costs the sampler its timeout, not the run. */
class ToolRunnerTest {

    @TempDir
    Path dir;

    private Path script(String body) throws Exception {
        Path tool = dir.resolve("nvidia-smi");
        Files.writeString(tool, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwx------"));
        return tool;
    }

    @Test
    void aToolThatHangsWithItsOutputOpenIsKilledAtTheTimeout() throws Exception {
        Path tool = script("echo 'index, clocks_event_reasons.active'\nexec sleep 600");
        Optional<String> out = assertTimeoutPreemptively(
                Duration.ofSeconds(30), () -> new ToolRunner().run(List.of(tool.toString()), 1));
        assertThat(out).isEmpty();
    }

    @Test
    void aToolWhoseChildKeepsItsOutputOpenIsKilledWithTheChild() throws Exception {
        Path tool = script("echo 0\nsleep 600 &\nwait");
        Optional<String> out = assertTimeoutPreemptively(
                Duration.ofSeconds(30), () -> new ToolRunner().run(List.of(tool.toString()), 1));
        assertThat(out).isEmpty();
    }

    @Test
    void aToolThatAnswersInTimeGivesItsOutput() throws Exception {
        Path tool = script("echo 'index'\necho 0");
        assertThat(new ToolRunner().run(List.of(tool.toString()), 10)).contains("index\n0\n");
    }
}
