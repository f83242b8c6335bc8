package dev.podium.events.model;

import dev.podium.events.validate.Nullable;
import dev.podium.events.validate.Text;

/** The outcome of one validity check of a run, e.g. {@code min_repetitions} passed with detail "3 of 3". */
public record ValidityCheck(
        String name, boolean passed, @Nullable @Text String detail) {}
