package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;

/**
 * A percentile's 95% distribution-free interval, two of the values themselves ({@link OrderStatistics}): the value at the
 * lower rank and the value at the upper rank, each absent where too few values reach that rank (the side is open).
 */
public record PercentileBounds(
        @Nullable @NonNegative Double low,
        @Nullable @NonNegative Double high) {}
