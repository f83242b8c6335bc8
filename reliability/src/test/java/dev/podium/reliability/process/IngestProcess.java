package dev.podium.reliability.process;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** ingest-service's packaged application (quarkus-app) in its own JVM, as an operator runs it, so it can be SIGKILLed. */
public final class IngestProcess implements AutoCloseable {

    public static final String ADMIN_TOKEN_NAME = "reliability";
    /** The suite's master key (base64 of 32 bytes); a workload must never read it. */
    public static final String MASTER_KEY = "cmVsaWFiaWxpdHktc3VpdGUtbWFzdGVyLWtleS0zMiE=";
    /** Its heap: what a record must exceed after decompression to end it. */
    public static final int HEAP_MIB = 384;
    /** One client for every metrics and readiness read: the cases poll them every 100-250 ms. */
    private static final HttpClient PROBE_CLIENT =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Path jar;
    private final Path logDir;
    private final int httpPort;
    private final String jdbcUrl;
    private final String bootstrap;
    private final String adminToken;
    private ChildProcess process;
    private int starts;
    private List<String> options = List.of();

    /**
     * A start after the process ended by itself: how it ended, and how long after that end it was ready again (-1: it
     * ended again first); {@code secondsSinceFirstEnd}: from the first end of a run of such starts to ready, or -1.
     */
    public record Restart(int exitStatus, double secondsToReady, double secondsSinceFirstEnd) {}

    /** {@code name} names the log file ({@code <name>.log}) of an instance; several can share one consumer group. */
    public IngestProcess(
            String name, Path jar, Path logDir, int httpPort, String jdbcUrl, String bootstrap, String adminToken) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    jar + " is missing: package ingest-service first (mvn -pl ingest-service -am package)");
        }
        this.name = name;
        this.jar = jar;
        this.logDir = logDir;
        this.httpPort = httpPort;
        this.jdbcUrl = jdbcUrl;
        this.bootstrap = bootstrap;
        this.adminToken = adminToken;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + httpPort;
    }

    /** Starts it and waits until its readiness check answers UP. */
    public void start() {
        start(List.of());
    }

    /** Starts it with extra JVM options (system properties such as a fault to inject) and waits until it is ready. */
    public void start(List<String> options) {
        launch(options);
        awaitReady(Duration.ofSeconds(120));
    }

    private void launch(List<String> options) {
        this.options = List.copyOf(options);
        List<String> cmd = new ArrayList<>(List.of(
                ChildProcess.javaBinary(),
                "-Xmx" + HEAP_MIB + "m",
                // as ./podium up, compose and the Dockerfile run it: a fatal error ends the process, which is started
                // again (restartWhileExiting here, scripts/lib/restart-on-exit.sh there)
                "-XX:+ExitOnOutOfMemoryError",
                "-Dquarkus.http.port=" + httpPort,
                "-Dquarkus.datasource.jdbc.url=" + jdbcUrl,
                "-Dquarkus.datasource.username=postgres",
                "-Dquarkus.datasource.password=",
                "-Dkafka.bootstrap.servers=" + bootstrap,
                "-Dpodium.admin.tokens." + ADMIN_TOKEN_NAME + "=" + adminToken,
                "-Dpodium.ingest.master-key=" + MASTER_KEY,
                "-Dpodium.ingest.consumer.retry-backoff=500ms",
                "-Dquarkus.log.console.format=%d{HH:mm:ss,SSS} %-5p [%c{2.}] %s%e%n"));
        cmd.addAll(options);
        cmd.addAll(List.of("-jar", jar.toString()));
        starts++;
        process = ChildProcess.start(name, log(), cmd);
    }

    public void awaitReady(Duration timeout) {
        if (!readyOrEnded(timeout)) {
            throw new IllegalStateException("ingest-service exited: " + process.tail(30));
        }
    }

    /** True once its readiness check answers UP, false if it ends first; fails after {@code timeout}. */
    private boolean readyOrEnded(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                return false;
            }
            if (ready()) {
                return true;
            }
            Ports.sleep(300);
        }
        throw new IllegalStateException("ingest-service not ready within " + timeout + ": " + process.tail(30));
    }

    /** Whether its readiness check answers UP now (within 5 s). */
    public boolean ready() {
        try {
            HttpResponse<String> r = PROBE_CLIENT.send(
                    HttpRequest.newBuilder(URI.create(baseUrl() + "/q/health/ready"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200;
        } catch (Exception e) {
            return false;
        }
    }

    public Path log() {
        return logDir.resolve(name + ".log");
    }

    /**
     * Starts it again, with the options of its last start, each time it ends by itself, as {@code ./podium up} does,
     * until {@code done} holds (looked at every 200 ms) or {@code limit} has passed. Each restart says how the process
     * ended and how long after that end it was ready again; a start that ended again before it was ready is a restart
     * with {@code secondsToReady} -1.
     */
    public List<Restart> restartWhileExiting(BooleanSupplier done, Duration limit) {
        List<Restart> restarts = new ArrayList<>();
        long deadline = System.nanoTime() + limit.toNanos();
        long firstEnded = -1;
        while (Waits.until(() -> done.getAsBoolean() || !process.isAlive(), deadline, Duration.ofMillis(200))
                && !done.getAsBoolean()) {
            long ended = System.nanoTime();
            firstEnded = firstEnded < 0 ? ended : firstEnded;
            int status = process.waitFor(1);
            launch(options);
            if (readyOrEnded(Duration.ofSeconds(120))) {
                long now = System.nanoTime();
                restarts.add(new Restart(status, (now - ended) / 1e9, (now - firstEnded) / 1e9));
                firstEnded = -1;
            } else {
                restarts.add(new Restart(status, -1, -1));
            }
        }
        return restarts;
    }

    /** Stops it as an operator or a deploy does (SIGTERM, SIGKILL after 30 s) and returns once it has ended. */
    public void stop() {
        process.stop();
    }

    /** Starts it again with the options of its last start and waits until it is ready. */
    public void restart() {
        start(options);
    }

    /** Waits for the process to end by itself (a fault it was started with); its exit status. */
    public int awaitExit(long seconds) {
        return process.waitFor(seconds);
    }

    /**
     * The value of one Prometheus sample of {@code /q/metrics}, by its name and labels as written there (such as
     * {@code podium_ingest_events_total{outcome="duplicate"}}); NaN when the instance does not answer or has no such
     * sample.
     */
    public double metric(String sample) {
        try {
            HttpResponse<String> r = PROBE_CLIENT.send(
                    HttpRequest.newBuilder(URI.create(baseUrl() + "/q/metrics"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            for (String line : r.body().split("\n")) {
                if (line.startsWith(sample + " ")) {
                    return Double.parseDouble(
                            line.substring(sample.length() + 1).trim());
                }
            }
        } catch (Exception e) {
            // not answering: NaN below
        }
        return Double.NaN;
    }

    /** SIGKILL: whatever batch it holds is neither committed to the database nor to Kafka, or half of it is. */
    public void kill() {
        process.kill();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public int starts() {
        return starts;
    }

    @Override
    public void close() {
        if (process != null) {
            process.stop();
        }
    }
}
