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

/** query-service's packaged application (quarkus-app) in its own JVM, one replica of several on one database. */
public final class QueryProcess implements AutoCloseable {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String name;
    private final Path jar;
    private final Path logDir;
    private final int httpPort;
    private final String jdbcUrl;
    private ChildProcess process;

    public QueryProcess(String name, Path jar, Path logDir, int httpPort, String jdbcUrl) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    jar + " is missing: package query-service first (mvn -pl query-service -am package)");
        }
        this.name = name;
        this.jar = jar;
        this.logDir = logDir;
        this.httpPort = httpPort;
        this.jdbcUrl = jdbcUrl;
    }

    /** Starts it and waits until its readiness check answers UP. */
    public void start() {
        start(List.of());
    }

    /** Starts it with extra JVM options (such as a shorter online window) and waits until it is ready. */
    public void start(List<String> options) {
        List<String> cmd = new ArrayList<>(List.of(
                ChildProcess.javaBinary(),
                "-Xmx256m",
                "-Dquarkus.http.port=" + httpPort,
                // several query-services may run on this machine at once: metrics wherever the system has room
                "-Dquarkus.management.port=0",
                "-Dquarkus.datasource.jdbc.url=" + jdbcUrl,
                "-Dquarkus.datasource.username=postgres",
                "-Dquarkus.datasource.password="));
        cmd.addAll(options);
        cmd.addAll(List.of("-jar", jar.toString()));
        process = ChildProcess.start(name, logDir.resolve(name + ".log"), cmd);
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited: " + process.tail(30));
            }
            if (get("/q/health/ready").status() == 200) {
                return;
            }
            Ports.sleep(300);
        }
        throw new IllegalStateException(name + " not ready within 120 s: " + process.tail(30));
    }

    /** A page as fetched: its status (0 when nothing answered) and body. */
    public record Page(int status, String body) {}

    public Page get(String path) {
        return get(path, Duration.ofSeconds(5));
    }

    /** A page as fetched, status 0 when it did not answer within {@code timeout}. */
    public Page get(String path, Duration timeout) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                            .timeout(timeout)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Page(r.statusCode(), r.body());
        } catch (java.io.IOException e) {
            return new Page(0, "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Page(0, "");
        }
    }

    public int port() {
        return httpPort;
    }

    @Override
    public void close() {
        if (process != null) {
            process.stop();
        }
    }
}
