package dev.podium.events.run;

import dev.podium.events.model.Metric;
import dev.podium.events.model.ValidityCheck;
import dev.podium.events.validate.NonNegative;
import java.util.List;
import java.util.UUID;

/** A run finished with results: its metrics (raw per-repetition values and statistics) and validity checks. */
public record RunCompleted(
        UUID runId,
        List<Metric> metrics,
        List<ValidityCheck> validity,
        @NonNegative double durationSeconds) implements RunEvent {}
