package dev.podium.reliability.fault;

import dev.podium.events.Envelope;
import dev.podium.events.testing.SampleEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The events of one case: runs of {@value #RUN_LENGTH} events (RunStarted, RunProgress..., RunCompleted), all derived
 * from the agent id and a seed, so that a restarted agent driver and the accounting produce the same events.
 */
public final class Workload {

    public static final int RUN_LENGTH = 50;

    private Workload() {}

    public static List<Envelope> events(String agentId, String seed, int count) {
        List<Envelope> out = new ArrayList<>(count);
        for (int run = 0; out.size() < count; run++) {
            UUID runId = SampleEvents.uuid(agentId + "/" + seed + "/run-" + run);
            int length = Math.min(RUN_LENGTH, count - out.size());
            out.add(SampleEvents.runStarted(
                    runId, agentId, SampleEvents.DEVICE_ID, SampleEvents.referenceKey(0), SampleEvents.AT));
            for (int seq = 2; seq < length; seq++) {
                out.add(SampleEvents.runProgress(runId, agentId, seq, 1, seq, RUN_LENGTH));
            }
            if (length > 1) {
                double base = 500 + (run % 17);
                out.add(SampleEvents.runCompleted(runId, agentId, length, List.of(base, base + 1, base + 2)));
            }
        }
        return out;
    }
}
