package dev.podium.events.run;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import dev.podium.events.validate.Text;
import java.util.UUID;

/** Progress of a running run, for live views; not a result. */
public record RunProgress(
        UUID runId,
        @NonNegative int repetition,
        @NonNegative long step,
        @NonNegative long totalSteps,
        String phase,
        @Nullable @Text String message)
        implements RunEvent {}
