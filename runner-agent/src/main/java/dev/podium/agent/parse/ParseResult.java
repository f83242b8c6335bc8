package dev.podium.agent.parse;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a parser found: metrics, per-step samples (JSON-lines protocol only), environment facts the workload reported, and
 * warnings about lines it could not use. A parser never throws on bad output; it reports less.
 */
public record ParseResult(
        String format,
        List<ParsedMetric> metrics,
        List<StepSample> steps,
        Map<String, String> info,
        List<String> warnings) {

    public ParseResult {
        metrics = List.copyOf(metrics);
        steps = List.copyOf(steps);
        info = Map.copyOf(info);
        warnings = List.copyOf(warnings);
    }

    public Optional<ParsedMetric> metric(String name) {
        return metrics.stream().filter(m -> m.name().equals(name)).reduce((a, b) -> b);
    }
}
