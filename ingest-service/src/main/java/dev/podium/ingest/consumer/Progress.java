package dev.podium.ingest.consumer;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Whether the event consumer moves on: when it last wrote a batch, or last found nothing to read, and whether records
 * wait for it now (polled and not written, or lag at the broker). Readiness reports a consumer that has records waiting
 * and has not moved on for a while as stalled, whatever the reason (a batch that fails again and again, a thread stuck).
 */
@ApplicationScoped
public class Progress {

    private final LongSupplier nanoTime;
    private volatile long lastAdvance;
    private volatile boolean waiting;

    public Progress() {
        this(System::nanoTime);
    }

    Progress(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.lastAdvance = nanoTime.getAsLong();
    }

    /** A batch was written, or a poll found nothing; {@code moreWaiting}: records are still there to be written. */
    public void advanced(boolean moreWaiting) {
        lastAdvance = nanoTime.getAsLong();
        waiting = moreWaiting;
    }

    /** Records were polled, or the broker holds records this consumer has not read. */
    public void recordsWaiting() {
        waiting = true;
    }

    /** Records wait and nothing was written for longer than {@code limit}. */
    public boolean stalled(Duration limit) {
        return waiting && nanoTime.getAsLong() - lastAdvance > limit.toNanos();
    }
}
