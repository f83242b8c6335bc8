package dev.podium.ingest.testing;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunStarted;
import dev.podium.events.testing.SampleEvents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** Runs whose agent recorded its accelerators' power limits and throttle reasons, as ingest's throttle check reads them. */
public final class ThrottledRuns {

    private ThrottledRuns() {}

    /**
     * A run on two devices with the given enforced limit (default 700 W) whose window's samples are clean but for
     * {@code reason} on device 1 at t = 12 and 13 s, a slowdown before the window on device 0, and a RunCompleted that
     * claims not_throttled passed: its RunStarted, MetricSampled and RunCompleted.
     */
    public static List<Envelope> run(UUID run, String agentId, ComparisonKey key, double limit, ThrottleReason reason) {
        String id = run.toString().substring(0, 8);
        List<AcceleratorDevice> devices = List.of(
                new AcceleratorDevice(0, "GPU-" + id + "-0", limit, 700.0, 1980.0, 2619.0),
                new AcceleratorDevice(1, "GPU-" + id + "-1", limit, 700.0, 1980.0, 2619.0));
        List<Sample> samples = new ArrayList<>();
        samples.add(new Sample(0.5, ThrottleReason.HW_SLOWDOWN.bit(), null, 0));
        for (int t = 1; t <= 20; t++) {
            for (int d = 0; d < 2; d++) {
                long bits = d == 1 && (t == 12 || t == 13) ? ThrottleReason.bits(Set.of(reason)) : 0;
                samples.add(new Sample(t, bits, t <= 10 ? 0 : 1, d));
            }
        }
        RunCompleted c = (RunCompleted) SampleEvents.runCompleted(run, agentId, 3, List.of(100.0, 101.0, 99.0))
                .payload();
        List<ValidityCheck> claimed = new ArrayList<>(c.validity());
        claimed.add(new ValidityCheck("not_throttled", true, "no slowdown (as the agent says)"));
        return List.of(
                started(run, agentId, key, devices),
                SampleEvents.metricSampled(run, agentId, 2, SeriesKind.THROTTLE_REASONS, "reasons", samples),
                SampleEvents.envelope(
                        StreamId.run(run),
                        3,
                        agentId,
                        Instant.now(),
                        new RunCompleted(run, c.metrics(), claimed, c.durationSeconds())));
    }

    /** The sample RunStarted of {@code run} (seq 1) on H100s, naming these devices. */
    public static Envelope started(UUID run, String agentId, ComparisonKey key, List<AcceleratorDevice> devices) {
        RunStarted s = (RunStarted) SampleEvents.runStarted(run, agentId, "nvidia-h100-sxm", key, Instant.now())
                .payload();
        return SampleEvents.envelope(
                StreamId.run(run),
                1,
                agentId,
                Instant.now(),
                new RunStarted(
                        s.runId(),
                        s.jobId(),
                        s.leaseEpoch(),
                        s.host(),
                        s.accelerators(),
                        s.software(),
                        s.workload(),
                        s.key(),
                        s.repetitions(),
                        s.warmupSteps(),
                        s.provenance(),
                        devices));
    }
}
