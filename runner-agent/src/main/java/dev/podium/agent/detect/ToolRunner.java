package dev.podium.agent.detect;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
