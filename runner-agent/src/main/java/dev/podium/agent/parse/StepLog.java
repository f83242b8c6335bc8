package dev.podium.agent.parse;

import dev.podium.events.model.Direction;
import dev.podium.events.model.Percentiles;
import java.util.List;

/**
 * Figures from a per-step log (Podium's step lines): the throughput of the measured steps ({@code samples / seconds},
 * each step's rate as a sample) and their time ({@value JsonLinesParser#STEP_TIME} with its p50, p90 and p99 as metrics
 * of their own, lower-is-better).
 */
public final class StepLog {

    private StepLog() {}

    /**
     * The metrics of {@code steps} after the first {@code skip} of them and any the log flags as warm-up: what the agent
     * publishes when it, not the tool, leaves the warm-up out. Empty when no step is left.
     */
    public static List<ParsedMetric> afterWarmup(List<StepSample> steps, int skip) {
        Collector c = new Collector("step-log");
        List<StepSample> measured =
                steps.stream().skip(Math.max(0, skip)).filter(s -> !s.warmup()).toList();
        throughput(c, measured);
        stepTimes(c, measured);
        return c.result().metrics();
    }

    static void throughput(Collector c, List<StepSample> measured) {
        if (measured.isEmpty()) {
            return;
        }
        c.metric(
                JsonLinesParser.THROUGHPUT,
                measured.stream().mapToLong(StepSample::samples).sum()
                        / measured.stream().mapToDouble(StepSample::seconds).sum(),
                "samples/s",
                Direction.HIGHER_IS_BETTER,
                measured.stream().map(StepSample::samplesPerSecond).toList());
    }

    /**
     * The measured steps' time: its mean, with every step as a sample, and from two steps on its median, 90th and 99th
     * percentiles as metrics of their own.
     */
    static void stepTimes(Collector c, List<StepSample> measured) {
        if (measured.isEmpty()) {
            return;
        }
        List<Double> ms = measured.stream().map(st -> st.seconds() * 1000).toList();
        c.metric(
                JsonLinesParser.STEP_TIME,
                ms.stream().mapToDouble(Double::doubleValue).average().orElseThrow(),
                "ms",
                Direction.LOWER_IS_BETTER,
                ms);
        if (ms.size() >= 2) {
            Percentiles p = Percentiles.of(ms);
            c.metric("step_time_p50_ms", p.p50(), "ms", Direction.LOWER_IS_BETTER);
            c.metric("step_time_p90_ms", p.p90(), "ms", Direction.LOWER_IS_BETTER);
            c.metric("step_time_p99_ms", p.p99(), "ms", Direction.LOWER_IS_BETTER);
        }
    }
}
