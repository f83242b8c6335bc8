package dev.podium.reliability.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft broker in its own JVM, from the same jars and settings as {@code ./podium up}; its data stays in
 * {@code dir} across stops, so a restarted broker has every acknowledged record.
 */
public final class KafkaBrokerProcess implements AutoCloseable {

    private static final Path SERVER_PROPERTIES =
            Path.of(System.getProperty("podium.kafka.config", "../scripts/kafka/server.properties"));

    private final Path dir;
    private final int port;
    private ChildProcess process;

    private KafkaBrokerProcess(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Formats the storage and starts the broker on {@code port} (client) and {@code port + 1} (controller). */
    public static KafkaBrokerProcess start(Path dir, int port) {
        KafkaBrokerProcess k = new KafkaBrokerProcess(dir, port);
        k.format();
        k.start();
        return k;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    private void format() {
        try {
            Files.createDirectories(dir.resolve("data"));
            int controller = port + 1;
            // The platform's one broker configuration; fewer offsets partitions make the suite's many broker starts
            // quicker.
            String config = Files.readString(SERVER_PROPERTIES)
                    .replace("@CONTROLLER_PORT@", Integer.toString(controller))
                    .replace("@PORT@", Integer.toString(port))
                    .replace("@LOG_DIRS@", dir.resolve("data").toString());
            Files.writeString(dir.resolve("server.properties"), config + "offsets.topic.num.partitions=4\n");
            Files.writeString(
                    dir.resolve("logging.properties"), "handlers=java.util.logging.ConsoleHandler\n.level=WARNING\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChildProcess.run(
                dir.resolve("format.log"),
                List.of(
                        ChildProcess.javaBinary(),
                        "-cp",
                        ChildProcess.classPath(),
                        "kafka.tools.StorageTool",
                        "format",
                        "-t",
                        Uuid.randomUuid().toString(),
                        "-c",
                        dir.resolve("server.properties").toString()),
                120);
    }

    /** Starts the broker (again) and waits until it answers. */
    public void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("Kafka is running already");
        }
        process = ChildProcess.java(
                "kafka",
                dir.resolve("kafka.log"),
                List.of("-Xmx512m", "-Djava.util.logging.config.file=" + dir.resolve("logging.properties")),
                "kafka.Kafka",
                List.of(dir.resolve("server.properties").toString()));
        Ports.awaitListening(port, 90, "Kafka");
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        try (Admin admin = Admin.create(p)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (true) {
                try {
                    admin.describeCluster().nodes().get();
                    return;
                } catch (Exception e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("Kafka did not answer; see " + process.log(), e);
                    }
                    Ports.sleep(500);
                }
            }
        }
    }

    /** SIGTERM: a controlled shutdown. */
    public void stop() {
        process.stop();
    }

    /** SIGKILL. */
    public void kill() {
        process.kill();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public void close() {
        if (process != null) {
            process.kill();
        }
    }
}
