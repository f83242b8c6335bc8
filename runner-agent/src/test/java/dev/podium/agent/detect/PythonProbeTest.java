package dev.podium.agent.detect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.podium.events.model.Software;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PythonProbeTest {

    @TempDir
    Path dir;

    @Test
    void anInterpreterIsProbedOnceForAllTheProbesOfTheProcessWhileItsFileIsUnchanged() throws Exception {
        Path python = interpreter("3.11.2", "2.1.0");

        Software first = new PythonProbe(python.toString(), new ToolRunner()).software();
        Software second = new PythonProbe(python.toString(), new ToolRunner()).software();

        assertThat(second).isEqualTo(first);
        assertThat(first.frameworkVersion()).isEqualTo("2.1.0");
        assertThat(probes()).hasSize(1);
    }

    @Test
    void anInterpreterWhoseFileChangedIsProbedAgain() throws Exception {
        Path python = interpreter("3.11.2", "2.1.0");
        new PythonProbe(python.toString(), new ToolRunner()).software();

        interpreter("3.12.1", "2.3.0");
        Files.setLastModifiedTime(
                python, FileTime.fromMillis(Files.getLastModifiedTime(python).toMillis() + 60_000));
        Software upgraded = new PythonProbe(python.toString(), new ToolRunner()).software();

        assertThat(upgraded.pythonVersion()).isEqualTo("3.12.1");
        assertThat(upgraded.frameworkVersion()).isEqualTo("2.3.0");
        assertThat(probes()).hasSize(2);
    }

    @Test
    void aMissingInterpreterHasNoSoftwareUntilItIsInstalled() throws Exception {
        Path python = dir.resolve("python3");

        assertThat(new PythonProbe(python.toString(), new ToolRunner()).software())
                .isNull();
        interpreter("3.11.2", "2.1.0");

        assertThat(new PythonProbe(python.toString(), new ToolRunner())
                        .software()
                        .pythonVersion())
                .isEqualTo("3.11.2");
    }

    @Test
    void anInterpreterThatAnswersGarbageHasNoSoftware() throws Exception {
        Path python = dir.resolve("python3");
        Files.writeString(python, "#!/bin/sh\necho '{not json'\n");
        Files.setPosixFilePermissions(python, PosixFilePermissions.fromString("rwx------"));

        assertThat(new PythonProbe(python.toString(), new ToolRunner()).software())
                .isNull();
    }

    /** An executable that answers the probe as a real interpreter with these versions would, and logs each call. */
    private Path interpreter(String python, String torch) throws Exception {
        Path file = dir.resolve("python3");
        Files.writeString(file, """
                #!/bin/sh
                echo probed >> "%s"
                echo '{"python": "%s", "libraries": {"torch": "%s"}}'
                """.formatted(dir.resolve("probes"), python, torch));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    private List<String> probes() throws Exception {
        return Files.readAllLines(dir.resolve("probes"));
    }
}
