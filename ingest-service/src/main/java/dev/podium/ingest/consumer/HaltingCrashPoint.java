package dev.podium.ingest.consumer;

import dev.podium.ingest.config.IngestConfig;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * The production crash point: does nothing unless {@code podium.ingest.fault.halt-at} names a stage, and then halts the
 * whole process there (no shutdown hook, no offset commit, no goodbye to the group: what a SIGKILL leaves) when the
 * {@code halt-after-batches}th batch reaches it. The fault-injection suite starts a packaged instance with it, to kill
 * one instance of a consumer group with a batch in flight at a known point.
 */
@DefaultBean
@ApplicationScoped
public class HaltingCrashPoint implements CrashPoint {

    private static final Logger LOG = Logger.getLogger(HaltingCrashPoint.class);
    /** The exit status of a process killed by SIGKILL. */
    private static final int KILLED = 137;

    private final IngestConfig.Fault fault;
    private final AtomicInteger reached = new AtomicInteger();

    public HaltingCrashPoint(IngestConfig config) {
        this.fault = config.fault();
    }

    @Override
    public void reached(Stage stage) {
        if (fault.haltAt().filter(stage::equals).isEmpty() || reached.incrementAndGet() < fault.haltAfterBatches()) {
            return;
        }
        LOG.errorf("halting at %s of batch %d (podium.ingest.fault.halt-at)", stage, reached.get());
        Runtime.getRuntime().halt(KILLED);
    }
}
