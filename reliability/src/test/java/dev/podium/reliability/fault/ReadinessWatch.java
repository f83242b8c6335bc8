package dev.podium.reliability.fault;

import dev.podium.reliability.process.IngestProcess;
import dev.podium.reliability.process.Ports;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks ingest-service's readiness check every {@value #EVERY_MS} ms, on a thread of its own, while an attack goes on: an
 * attack must never make it not ready, end it, or have it started again.
 */
final class ReadinessWatch implements AutoCloseable {

    private static final long EVERY_MS = 250;

    private final IngestProcess ingest;
    private final int startsBefore;
    private final Thread thread;
    private volatile boolean stop;
    private volatile int looks;
    private volatile int notReady;

    ReadinessWatch(IngestProcess ingest) {
        this.ingest = ingest;
        this.startsBefore = ingest.starts();
        this.thread = new Thread(this::watch, "readiness-watch");
        thread.setDaemon(true);
        thread.start();
    }

    private void watch() {
        while (!stop) {
            boolean ready = ingest.ready();
            looks++;
            if (!ready) {
                notReady++;
            }
            Ports.sleep(EVERY_MS);
        }
    }

    String figure() {
        return "ingest ready at " + (looks - notReady) + " of " + looks + " looks";
    }

    List<String> problems() {
        List<String> out = new ArrayList<>();
        if (notReady > 0) {
            out.add("ingest was not ready at " + notReady + " of " + looks + " looks during the attack");
        }
        if (ingest.starts() != startsBefore || !ingest.isAlive()) {
            out.add("ingest-service ended during the attack");
        }
        return out;
    }

    @Override
    public void close() {
        stop = true;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
