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

/** ingest-service's packaged application (quarkus-app) in its own JVM, as an operator runs it, so it can be SIGKILLed. */
public final class IngestProcess implements AutoCloseable {

    public static final String ADMIN_TOKEN_NAME = "reliability";
    /** One client for every metrics read: the cases poll them every 100 ms. */
    private static final HttpClient METRICS_CLIENT =
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
        List<String> cmd = new ArrayList<>(List.of(
                ChildProcess.javaBinary(),
                "-Xmx384m",
                "-Dquarkus.http.port=" + httpPort,
                "-Dquarkus.datasource.jdbc.url=" + jdbcUrl,
                "-Dquarkus.datasource.username=postgres",
                "-Dquarkus.datasource.password=",
                "-Dkafka.bootstrap.servers=" + bootstrap,
                "-Dpodium.admin.tokens." + ADMIN_TOKEN_NAME + "=" + adminToken,
                "-Dpodium.ingest.master-key=cmVsaWFiaWxpdHktc3VpdGUtbWFzdGVyLWtleS0zMiE=",
                "-Dpodium.ingest.consumer.retry-backoff=500ms",
                "-Dquarkus.log.console.format=%d{HH:mm:ss,SSS} %-5p [%c{2.}] %s%e%n"));
        cmd.addAll(options);
        cmd.addAll(List.of("-jar", jar.toString()));
        starts++;
        process = ChildProcess.start(name, log(), cmd);
        awaitReady(Duration.ofSeconds(120));
    }

    public void awaitReady(Duration timeout) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("ingest-service exited: " + process.tail(30));
            }
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(baseUrl() + "/q/health/ready"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (Exception e) {
                // not up yet
            }
            Ports.sleep(300);
        }
        throw new IllegalStateException("ingest-service not ready within " + timeout + ": " + process.tail(30));
    }

    public Path log() {
        return logDir.resolve(name + ".log");
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
            HttpResponse<String> r = METRICS_CLIENT.send(
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
