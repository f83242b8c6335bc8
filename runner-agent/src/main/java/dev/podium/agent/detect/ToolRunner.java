package dev.podium.agent.detect;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs a vendor tool with a timeout. A tool that is not installed, fails or hangs yields empty: on most hosts most tools
 * are missing, and that is not an error.
 */
public class ToolRunner {

    private static final int MAX_OUTPUT = 4 * 1024 * 1024;

    public Optional<String> run(List<String> command, long timeoutSeconds) {
        if (!onPath(command.get(0))) {
            return Optional.empty();
        }
        try {
            Process p = builder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.getOutputStream().close();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readNBytes(MAX_OUTPUT);
            }
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            return p.exitValue() == 0 ? Optional.of(new String(out, StandardCharsets.UTF_8)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** How the tool's process is made; a subclass may run it elsewhere (as another user, in namespaces). */
    protected ProcessBuilder builder(List<String> command) {
        return new ProcessBuilder(command);
    }

    public boolean onPath(String tool) {
        if (tool.contains("/")) {
            return Files.isExecutable(Path.of(tool));
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
