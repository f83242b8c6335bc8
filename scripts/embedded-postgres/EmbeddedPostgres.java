import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs an embedded PostgreSQL (zonky binaries) for `./podium up` on machines without a server, as a non-root user
 * (PostgreSQL refuses to run as root). Usage: java -cp "libs/*" EmbeddedPostgres.java DATA_DIR PORT. It keeps its data
 * between runs and stops cleanly on SIGTERM.
 */
public class EmbeddedPostgres {

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: EmbeddedPostgres DATA_DIR PORT");
            System.exit(2);
        }
        Path data = Path.of(args[0]);
        Files.createDirectories(data);
        var postgres = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                .setDataDirectory(data)
                .setCleanDataDirectory(false)
                .setPort(Integer.parseInt(args[1]))
                .start();
        System.out.println("embedded PostgreSQL listening on 127.0.0.1:" + args[1]);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                postgres.close();
            } catch (Exception e) {
                System.err.println("stopping PostgreSQL: " + e);
            }
            stopped.countDown();
        }));
        stopped.await();
    }
}
