package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;

/** Summary statistics of a metric's per-repetition values. {@code cv} is stdev / mean. */
public record Statistics(
        @NonNegative int n,
        @NonNegative double mean,
        @NonNegative double median,
        @NonNegative double stdev,
        @NonNegative double min,
        @NonNegative double max,
        double ci95Low,
        double ci95High,
        @NonNegative double cv) {
}
