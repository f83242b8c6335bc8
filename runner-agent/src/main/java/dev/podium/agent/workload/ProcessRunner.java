package dev.podium.agent.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one workload process, isolated as the agent's {@link Isolation} says: its output is read as it comes (for
 * progress and parsing), the run is bounded by a timeout, and {@link #cancel()} stops it (the process and its children,
 * e.g. dataloader workers).
 */
public final class ProcessRunner {

    static final int MAX_STDOUT_CHARS = 32 * 1024 * 1024;
    static final int TAIL_LINES = 60;
    static final int MAX_LINE_CHARS = 1024 * 1024;

    private final Isolation isolation;
    private volatile Process process;
    private volatile boolean cancelled;

    public ProcessRunner(Isolation isolation) {
        this.isolation = isolation;
    }

    /**
     * Runs {@code command} with exactly {@code environment} (plus PYTHONUNBUFFERED), in the isolation's run directory.
     */
    public ProcessOutcome run(
            List<String> command, Map<String, String> environment, Duration timeout, Consumer<String> onLine) {
        ProcessBuilder pb = builder(isolation.command(command), isolation.environment(environment));
        Deque<String> tail = new ArrayDeque<>();
        StringBuilder stdout = new StringBuilder();
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new ProcessOutcome(
                    null, false, false, "", "", "cannot start " + command.get(0) + ": " + e.getMessage());
        }
        process = p;
        if (cancelled) {
            kill(p);
        }
        closeInput(p);
        Thread out = reader(p.getInputStream(), line -> {
            synchronized (stdout) {
                if (stdout.length() < MAX_STDOUT_CHARS) {
                    stdout.append(line).append('\n');
                }
            }
            addTail(tail, line);
            onLine.accept(line);
        });
        Thread err = reader(p.getErrorStream(), line -> addTail(tail, line));
        boolean finished = awaitExit(p, timeout, out, err);
        String t;
        synchronized (tail) {
            t = String.join("\n", tail);
        }
        Integer code = p.isAlive() ? null : p.exitValue();
        synchronized (stdout) {
            return new ProcessOutcome(code, !finished && !cancelled, cancelled, stdout.toString(), t, null);
        }
    }

    private ProcessBuilder builder(List<String> command, Map<String, String> environment) {
        ProcessBuilder pb = new ProcessBuilder(command);
        // The complete environment (see ChildEnvironment): nothing of the agent's own is inherited.
        pb.environment().clear();
        pb.environment().putAll(environment);
        pb.environment().put("PYTHONUNBUFFERED", "1");
        pb.directory(isolation.runDirectory().toFile());
        return pb;
    }

    private static void closeInput(Process p) {
        try {
            p.getOutputStream().close();
        } catch (IOException e) {
            // the process may already have exited
        }
    }

    /**
     * Waits for the process until the timeout, killing it past that, then for its output to be read; false when it ran
     * past the timeout or the wait was interrupted.
     */
    private static boolean awaitExit(Process p, Duration timeout, Thread out, Thread err) {
        try {
            boolean finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                kill(p);
            }
            out.join(5000);
            err.join(5000);
            return finished;
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Stops the running process, if any; the outcome then says cancelled. */
    public void cancel() {
        cancelled = true;
        Process p = process;
        if (p != null) {
            kill(p);
        }
    }

    public boolean isCancelled() {
        return cancelled;
    }

    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    private static void addTail(Deque<String> tail, String line) {
        synchronized (tail) {
            tail.addLast(line.length() > 500 ? line.substring(0, 500) + "…" : line);
            while (tail.size() > TAIL_LINES) {
                tail.removeFirst();
            }
        }
    }

    /** Reads lines, cutting any line at {@value #MAX_LINE_CHARS} characters so that output without newlines cannot exhaust memory. */
    private static Thread reader(InputStream in, Consumer<String> onLine) {
        Thread t = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                        StringBuilder line = new StringBuilder();
                        int c;
                        while ((c = r.read()) >= 0) {
                            if (c == '\n') {
                                onLine.accept(line.toString());
                                line.setLength(0);
                            } else if (line.length() < MAX_LINE_CHARS) {
                                line.append((char) c);
                            }
                        }
                        if (line.length() > 0) {
                            onLine.accept(line.toString());
                        }
                    } catch (IOException e) {
                        // the process went away
                    }
                },
                "podium-process-output");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
