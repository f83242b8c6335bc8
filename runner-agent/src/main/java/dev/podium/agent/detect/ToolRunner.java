package dev.podium.agent.detect;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a vendor tool with a timeout. A tool that is not installed, fails or hangs yields empty: on most hosts most tools
 * are missing, and that is not an error.
 */
public class ToolRunner {

    private static final int MAX_OUTPUT = 4 * 1024 * 1024;

    /** Readers of tools' output; daemon threads, so a reader stuck on a pipe never holds the agent's exit. */
    private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "podium-tool-output");
        t.setDaemon(true);
        return t;
    });

    /** Where tools are looked for, as PATH lists directories; null: nowhere. */
    private final String path;

    /** Looks tools up on the agent's own PATH. */
    public ToolRunner() {
        this(System.getenv("PATH"));
    }

    /** Looks tools up on {@code path} (a PATH value), which the tool also gets as its PATH. */
    public ToolRunner(String path) {
        this.path = path;
    }

    /**
     * The tool's output when it exits 0 within {@code timeoutSeconds}. Its output is read on another thread, so a tool
     * that hangs with its output open (or leaves a child holding it) is killed, with its children, at the deadline.
     */
    public Optional<String> run(List<String> command, long timeoutSeconds) {
        if (!onPath(command.get(0))) {
            return Optional.empty();
        }
        Process p;
        try {
            p = builder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
        } catch (IOException e) {
            return Optional.empty();
        }
        CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() -> readAll(p), READERS);
        try {
            byte[] out = output.get(timeoutSeconds, TimeUnit.SECONDS);
            if (!p.waitFor(1, TimeUnit.SECONDS)) {
                kill(p);
                return Optional.empty();
            }
            return p.exitValue() == 0 ? Optional.of(new String(out, StandardCharsets.UTF_8)) : Optional.empty();
        } catch (TimeoutException | ExecutionException e) {
            kill(p);
            return Optional.empty();
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static byte[] readAll(Process p) {
        try (InputStream in = p.getInputStream()) {
            return in.readNBytes(MAX_OUTPUT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Children first: once the tool is gone they are no longer its descendants. */
    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    /**
     * How the tool's process is made; a subclass may run it elsewhere (as another user, in namespaces). The tool is
     * found on this runner's PATH here, since the JVM would look it up on its own.
     */
    protected ProcessBuilder builder(List<String> command) {
        List<String> resolved = new ArrayList<>(command);
        locate(command.get(0)).ifPresent(tool -> resolved.set(0, tool.toString()));
        ProcessBuilder b = new ProcessBuilder(resolved);
        if (path != null) {
            b.environment().put("PATH", path);
        }
        return b;
    }

    public boolean onPath(String tool) {
        return locate(tool).isPresent();
    }

    private Optional<Path> locate(String tool) {
        if (tool.contains("/")) {
            return Optional.of(Path.of(tool)).filter(Files::isExecutable);
        }
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return Optional.of(Path.of(dir, tool));
            }
        }
        return Optional.empty();
    }
}
