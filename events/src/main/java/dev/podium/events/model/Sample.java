package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;

/**
 * One point of a series: seconds since the run started, the value, and optionally the repetition and device index it
 * belongs to.
 */
public record Sample(
        @NonNegative double t,
        @NonNegative double value,
        @Nullable @NonNegative Integer repetition,
        @Nullable @NonNegative Integer device) {}
