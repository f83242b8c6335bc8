package dev.podium.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * query-service started from its build as a user starts it ({@code java -jar quarkus-run.jar}) on the harness's port,
 * stopped at the end of each phase that needs a fresh service.
 */
final class QueryServiceProcess implements AutoCloseable {

    private final Process process;
    private final int port;

    private QueryServiceProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** With {@code cache} false, every page is read and rendered per request ({@code podium.query.cache.enabled}). */
    static QueryServiceProcess start(Path jar, String dbUrl, int port, boolean cache, Path log) throws IOException {
        // A longer wait for a database connection than the default 5 s: on a loaded machine the start's schema
        // validation otherwise fails before the first page is measured.
        List<String> command = new ArrayList<>(List.of(
                "java",
                "-Xmx1g",
                "-Dquarkus.http.port=" + port,
                // other query-services may run on this machine: metrics wherever the system has room
                "-Dquarkus.management.port=0",
                "-Dquarkus.log.level=WARN",
                "-Dquarkus.datasource.jdbc.acquisition-timeout=60S",
                // the schema is this build's, migrated by its ingest-service: an older query-service measured beside
                // it (--against) knows fewer migrations and would refuse to start
                "-Dquarkus.flyway.validate-at-start=false",
                "-Dpodium.query.cache.enabled=" + cache));
        String jfr = System.getenv("PODIUM_BENCH_QUERY_JFR");
        if (jfr != null && !jfr.isEmpty()) {
            // One recording per start, named by the log it writes beside, so that phases do not overwrite each other.
            command.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + jfr + "/"
                    + log.getFileName().toString().replace(".log", "") + "-" + System.nanoTime() + ".jfr");
        }
        command.addAll(List.of("-jar", jar.toString()));
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("PODIUM_DB_URL", dbUrl);
        return new QueryServiceProcess(pb.start(), port);
    }

    /**
     * Polls {@code /q/health/ready} every {@code pollMillis} until it answers 200 (readiness UP) and returns
     * System.nanoTime() of that answer.
     */
    long awaitReady(int pollMillis, int timeoutSeconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("query-service exited with " + process.exitValue());
            }
            try (KeepAliveClient c = new KeepAliveClient("127.0.0.1", port)) {
                if (c.get("/q/health/ready") == 200) {
                    return System.nanoTime();
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(pollMillis);
        }
        throw new IllegalStateException("query-service was not ready within " + timeoutSeconds + " s");
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
