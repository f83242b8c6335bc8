package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.util.List;

/**
 * One measured metric of a run: its raw per-repetition values (warm-up excluded when {@code warmupExcluded}) and their
 * statistics, and, where the workload gave per-request or per-step values, their percentiles (absent in events of agents
 * that predate them, and where there were no such values); {@code work}, where the workload or its job spec states it,
 * is what one unit of the metric costs the hardware (absent in older events).
 */
public record Metric(
        String name,
        String unit,
        Direction direction,
        Scope scope,
        boolean warmupExcluded,
        @Nullable @NonNegative List<Double> values,
        @Nullable Statistics statistics,
        @Nullable Percentiles percentiles,
        @Nullable WorkPerUnit work) {

    /** A metric that states no work per unit. */
    public Metric(
            String name,
            String unit,
            Direction direction,
            Scope scope,
            boolean warmupExcluded,
            List<Double> values,
            Statistics statistics,
            Percentiles percentiles) {
        this(name, unit, direction, scope, warmupExcluded, values, statistics, percentiles, null);
    }

    /** A metric without per-request or per-step percentiles. */
    public Metric(
            String name,
            String unit,
            Direction direction,
            Scope scope,
            boolean warmupExcluded,
            List<Double> values,
            Statistics statistics) {
        this(name, unit, direction, scope, warmupExcluded, values, statistics, null, null);
    }
}
