package dev.podium.reliability.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A process the suite started, with its output appended to a log file; stopped politely (SIGTERM) or killed (SIGKILL). */
public final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    public static ChildProcess start(String name, Path log, List<String> command) {
        try {
            Files.createDirectories(log.getParent());
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new ChildProcess(name, p, log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + ": " + command, e);
        }
    }

    /** A JVM on the suite's own class path (the Kafka broker, the agent driver). */
    public static ChildProcess java(
            String name, Path log, List<String> jvmOptions, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBinary());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(mainClass);
        cmd.addAll(args);
        return start(name, log, cmd);
    }

    public static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The test class path: surefire and failsafe put it here when java.class.path holds only their booter jar. */
    public static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    /** Runs a command to its end and fails with its output unless it exits 0. */
    public static String run(Path log, List<String> command, int timeoutSeconds) {
        ChildProcess p = start(command.get(0), log, command);
        try {
            if (!p.process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.kill();
                throw new IllegalStateException(
                        command + " did not finish within " + timeoutSeconds + " s; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (p.process.exitValue() != 0) {
            throw new IllegalStateException(command + " exited " + p.process.exitValue() + ": " + p.tail(20));
        }
        return p.tail(50);
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    public int waitFor(long seconds) {
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " still runs after " + seconds + " s; see " + log);
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGKILL, and waits until it is gone: no shutdown hook, no flush, no offset commit. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        waitGone();
    }

    /** SIGTERM, then SIGKILL after 30 s. */
    public void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
        }
    }

    private void waitGone() {
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        stop();
    }
}
