package dev.podium.agent.parse;

import dev.podium.events.model.Direction;
import java.util.List;

/**
 * One metric a parser found in a workload's output. Values are always finite and non-negative. {@code samples} are the
 * per-request or per-step values the value summarises, where the output gives them (empty otherwise), so that
 * percentiles can be computed from them.
 */
public record ParsedMetric(String name, double value, String unit, Direction direction, List<Double> samples) {

    public ParsedMetric {
        samples = samples == null ? List.of() : List.copyOf(samples);
    }

    public ParsedMetric(String name, double value, String unit, Direction direction) {
        this(name, value, unit, direction, List.of());
    }
}
