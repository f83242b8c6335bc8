package dev.podium.ingest.testing;

import dev.podium.ingest.consumer.CrashPoint;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.util.concurrent.atomic.AtomicReference;

/** A crash point a test arms for one stage: the next batch reaching it throws {@link SimulatedCrash}, once. */
@Alternative
@Priority(1)
@ApplicationScoped
public class ArmedCrashPoint implements CrashPoint {

    /** Not an Exception: nothing in the consumer catches it, so its thread dies where it stood. */
    public static final class SimulatedCrash extends Error {
        SimulatedCrash(Stage stage) {
            super("simulated crash at " + stage);
        }
    }

    private final AtomicReference<Stage> armed = new AtomicReference<>();
    private final AtomicReference<Stage> failing = new AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicInteger failingSkips =
            new java.util.concurrent.atomic.AtomicInteger();
    private final AtomicReference<Stage> failingAlways = new AtomicReference<>();
    private final AtomicReference<Stage> dataErrorStage = new AtomicReference<>();
    private final java.util.concurrent.atomic.AtomicInteger dataErrorsLeft =
            new java.util.concurrent.atomic.AtomicInteger();

    public void arm(Stage stage) {
        armed.set(stage);
    }

    /** The next batch reaching {@code stage} fails with an ordinary exception, as when the database goes away. */
    public void failOnce(Stage stage) {
        failOnce(stage, 0);
    }

    /** As {@link #failOnce(Stage)}, for the batch after the first {@code skip} batches that reach {@code stage}. */
    public void failOnce(Stage stage, int skip) {
        failingSkips.set(skip);
        failing.set(stage);
    }

    /** Every batch reaching {@code stage} fails with an ordinary exception until {@link #stopFailing()}. */
    public void failAlways(Stage stage) {
        failingAlways.set(stage);
    }

    public void stopFailing() {
        failingAlways.set(null);
    }

    /** The next {@code times} transactions reaching {@code stage} fail with a data error (SQLSTATE 22P02). */
    public void dataErrors(Stage stage, int times) {
        dataErrorStage.set(stage);
        dataErrorsLeft.set(times);
    }

    public boolean fired() {
        return armed.get() == null && failing.get() == null && dataErrorsLeft.get() <= 0;
    }

    @Override
    public void reached(Stage stage) {
        if (armed.compareAndSet(stage, null)) {
            throw new SimulatedCrash(stage);
        }
        if (stage == failing.get() && failingSkips.getAndDecrement() <= 0 && failing.compareAndSet(stage, null)) {
            throw new IllegalStateException("simulated failure at " + stage);
        }
        if (stage == failingAlways.get()) {
            throw new IllegalStateException("simulated lasting failure at " + stage);
        }
        if (stage == dataErrorStage.get() && dataErrorsLeft.getAndDecrement() > 0) {
            ArmedCrashPoint.<RuntimeException>sneaky(new java.sql.SQLException("simulated data error", "22P02"));
        }
    }

    /** Throws a checked exception past the interface's signature, as a JDBC call inside the batch would. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
