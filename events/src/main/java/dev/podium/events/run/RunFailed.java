package dev.podium.events.run;

import dev.podium.events.validate.Nullable;
import dev.podium.events.validate.Text;
import java.util.UUID;

/**
 * A run ended without results. {@code phase} is where it failed (setup, warmup, measure, parse, timeout); {@code logTail}
 * is the end of its output, secrets redacted.
 */
public record RunFailed(
        UUID runId,
        String phase,
        @Nullable Integer exitCode,
        @Text String reason,
        @Nullable @Text String logTail) implements RunEvent {}
