package dev.podium.reliability.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A PostgreSQL cluster of the suite's own, made with initdb in a temporary directory and run with pg_ctl on its own port,
 * so that restarting it disturbs nobody else. As root, the server binaries run as the {@code postgres} user (PostgreSQL
 * refuses root).
 */
public final class PrivatePostgres implements AutoCloseable {

    private static final Path BIN = Path.of(System.getProperty("podium.postgres.bin", "/usr/lib/postgresql/15/bin"));

    private final Path dir;
    private final int port;

    private PrivatePostgres(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    public static PrivatePostgres start(int port) {
        try {
            Path dir = Files.createTempDirectory("podium-reliability-pg-");
            PrivatePostgres pg = new PrivatePostgres(dir, port);
            if (isRoot()) {
                ChildProcess.run(Path.of(dir + ".log"), List.of("chown", "postgres:postgres", dir.toString()), 30);
            }
            pg.pg(
                    List.of(
                            BIN.resolve("initdb").toString(),
                            "-D",
                            dir.resolve("data").toString(),
                            "-A",
                            "trust",
                            "-U",
                            "postgres",
                            "-E",
                            "UTF8",
                            "--no-sync"),
                    120);
            pg.startServer();
            return pg;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), "postgres", "");
    }

    public void startServer() {
        pg(
                List.of(
                        BIN.resolve("pg_ctl").toString(),
                        "-D",
                        dir.resolve("data").toString(),
                        "-l",
                        dir.resolve("postgres.log").toString(),
                        "-w",
                        "-t",
                        "60",
                        "-o",
                        "-p " + port + " -c listen_addresses=127.0.0.1 -k " + dir + " -c max_connections=60",
                        "start"),
                90);
    }

    /** Stops the server the way a crash does (immediate: no checkpoint, open connections cut), then starts it again. */
    public void restart() {
        stopServer("immediate");
        startServer();
    }

    public void stopServer(String mode) {
        pg(
                List.of(
                        BIN.resolve("pg_ctl").toString(),
                        "-D",
                        dir.resolve("data").toString(),
                        "-m",
                        mode,
                        "-w",
                        "stop"),
                90);
    }

    private void pg(List<String> command, int timeoutSeconds) {
        List<String> cmd = new ArrayList<>();
        if (isRoot()) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(command);
        ChildProcess.run(Path.of(dir + ".log"), cmd, timeoutSeconds);
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    @Override
    public void close() {
        try {
            stopServer("immediate");
        } catch (RuntimeException e) {
            // already down
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory; leaving it is harmless
        }
        try {
            Files.deleteIfExists(Path.of(dir + ".log"));
        } catch (IOException e) {
            // as above
        }
    }
}
