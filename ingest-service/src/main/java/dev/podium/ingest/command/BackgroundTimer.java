package dev.podium.ingest.command;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The single named daemon thread each of the command side's periodic tasks (relay, reaper, schedules) runs on. */
final class BackgroundTimer {

    private BackgroundTimer() {
    }

    static ScheduledExecutorService named(String threadName) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }
}
