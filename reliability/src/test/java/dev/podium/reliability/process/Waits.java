package dev.podium.reliability.process;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.awaitility.core.ConditionTimeoutException;

/** Waits on conditions where a case goes on when one does not come, and reports what it then finds. */
public final class Waits {

    private Waits() {}

    /**
     * Waits until {@code condition} holds, looked at every {@code poll}; false when it did not by {@code deadline} (a
     * {@link System#nanoTime()}).
     */
    public static boolean until(BooleanSupplier condition, long deadline, Duration poll) {
        try {
            await().pollDelay(Duration.ZERO)
                    .pollInterval(poll)
                    .atMost(Duration.ofNanos(Math.max(deadline - System.nanoTime(), poll.toNanos())))
                    .until(condition::getAsBoolean);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }
}
