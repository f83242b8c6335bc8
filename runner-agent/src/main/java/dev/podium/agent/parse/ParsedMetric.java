package dev.podium.agent.parse;

import dev.podium.events.model.Direction;
import dev.podium.events.model.WorkPerUnit;
import java.util.List;

/**
 * One metric a parser found in a workload's output. Values are always finite and non-negative. {@code samples} are the
 * per-request or per-step values the value summarises, where the output gives them (empty otherwise), so that
 * percentiles can be computed from them; {@code work}, null when the output does not say, what one unit costs the
 * hardware as the output states it.
 */
public record ParsedMetric(
        String name, double value, String unit, Direction direction, List<Double> samples, WorkPerUnit work) {

    public ParsedMetric {
        samples = samples == null ? List.of() : List.copyOf(samples);
    }

    public ParsedMetric(String name, double value, String unit, Direction direction, List<Double> samples) {
        this(name, value, unit, direction, samples, null);
    }

    public ParsedMetric(String name, double value, String unit, Direction direction) {
        this(name, value, unit, direction, List.of());
    }

    /** This metric stating what one unit costs the hardware. */
    public ParsedMetric withWork(WorkPerUnit w) {
        return new ParsedMetric(name, value, unit, direction, samples, w);
    }
}
