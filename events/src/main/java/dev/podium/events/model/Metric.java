package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.util.List;

/**
 * One measured metric of a run: its raw per-repetition values (warm-up excluded when {@code warmupExcluded}) and their
 * statistics.
 */
public record Metric(
        String name,
        String unit,
        Direction direction,
        Scope scope,
        boolean warmupExcluded,
        @Nullable @NonNegative List<Double> values,
        @Nullable Statistics statistics) {
}
