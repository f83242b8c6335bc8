package dev.podium.ingest.heartbeat;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The log lines of dropped heartbeats, bounded: anyone who reaches the broker can send heartbeats by the thousand, and a
 * line for each would fill the disk. The first drop of each {@link #WINDOW} is written in full; the drops after it are
 * counted, and the count is written with the next full line. Every drop is counted in
 * {@code podium_ingest_heartbeats_total{outcome="dropped"}} whatever is written. One consumer thread uses it.
 */
final class DropLog {

    static final Duration WINDOW = Duration.ofMinutes(1);

    private final Consumer<String> sink;
    private final LongSupplier nanos;
    private long windowStart;
    private boolean started;
    private long unwritten;

    DropLog(Consumer<String> sink, LongSupplier nanos) {
        this.sink = sink;
        this.nanos = nanos;
    }

    /** A drop, described by {@code format} and {@code args}, formatted only when it is written. */
    void dropped(String format, Object... args) {
        long now = nanos.getAsLong();
        if (started && now - windowStart < WINDOW.toNanos()) {
            unwritten++;
            return;
        }
        if (unwritten > 0) {
            sink.accept(unwritten + " more heartbeats dropped since the last line written (one a minute is)");
        }
        started = true;
        windowStart = now;
        unwritten = 0;
        sink.accept(String.format(format, args));
    }
}
