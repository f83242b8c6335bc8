package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.util.List;
import java.util.Map;

/**
 * A benchmark job as agents receive it. {@code adapter} is {@code reference} (the PyTorch workload the agent ships) or
 * {@code command} (any command, possibly launching a multi-node run). {@code matrix} maps a parameter to the values to sweep.
 */
public record JobSpec(
        String benchmark,
        String adapter,
        @Nullable List<String> command,
        @Nullable String parser,
        Map<String, String> parameters,
        Map<String, List<String>> matrix,
        @NonNegative int repetitions,
        @NonNegative int warmupSteps,
        @NonNegative int timeoutSeconds,
        Map<String, String> environment,
        @NonNegative int nodes,
        @NonNegative int devicesPerNode,
        @Nullable String pool) {
}
