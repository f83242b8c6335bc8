package dev.podium.agent.parse;

import dev.podium.events.model.Direction;

/** One metric a parser found in a workload's output. Values are always finite. */
public record ParsedMetric(String name, double value, String unit, Direction direction) {
}
