package dev.podium.ingest.testing;

import dev.podium.events.Envelope;
import dev.podium.events.StreamId;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Direction;
import dev.podium.events.model.Metric;
import dev.podium.events.model.Scope;
import dev.podium.events.model.Statistics;
import dev.podium.events.model.WorkPerUnit;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.testing.SampleEvents;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;

/** Runs that feed hardware use: a mamf run's matmul rate, and a run whose throughput states its work per sample. */
public final class HardwareUseRuns {

    private HardwareUseRuns() {}

    /** A key of its own for {@code benchmark}, at bf16 on one accelerator. */
    public static ComparisonKey key(String benchmark, String scenario) {
        TreeMap<String, String> extra = new TreeMap<>();
        extra.put("probe", UUID.randomUUID().toString());
        return new ComparisonKey(benchmark, "1", scenario, "m", "bf16", 8, 1, null, extra);
    }

    /** RunStarted and RunCompleted of a mamf run: {@code tflops} per repetition. */
    public static List<Envelope> matmul(
            UUID run, String agentId, String device, ComparisonKey key, List<Double> tflops) {
        return completed(
                run,
                agentId,
                device,
                key,
                new Metric(
                        WorkPerUnit.MATMUL_METRIC,
                        "TFLOP/s",
                        Direction.HIGHER_IS_BETTER,
                        Scope.SYSTEM,
                        true,
                        tflops,
                        Statistics.of(tflops)));
    }

    /** RunStarted and RunCompleted of a run whose samples/s state {@code work} per sample (none: null). */
    public static List<Envelope> stated(
            UUID run, String agentId, String device, ComparisonKey key, List<Double> rates, WorkPerUnit work) {
        return completed(
                run,
                agentId,
                device,
                key,
                new Metric(
                        SampleEvents.THROUGHPUT_METRIC,
                        SampleEvents.THROUGHPUT_UNIT,
                        Direction.HIGHER_IS_BETTER,
                        Scope.SYSTEM,
                        true,
                        rates,
                        Statistics.of(rates),
                        null,
                        work));
    }

    private static List<Envelope> completed(UUID run, String agentId, String device, ComparisonKey key, Metric m) {
        List<Double> seconds = Collections.nCopies(m.values().size(), SampleEvents.REPETITION_SECONDS);
        return List.of(
                SampleEvents.runStarted(run, agentId, device, key, Instant.now()),
                SampleEvents.envelope(
                        StreamId.run(run),
                        2,
                        agentId,
                        Instant.now(),
                        new RunCompleted(
                                run,
                                List.of(m),
                                SampleEvents.valueChecks(m, 3, seconds),
                                SampleEvents.REPETITION_SECONDS * seconds.size() + 5)));
    }
}
