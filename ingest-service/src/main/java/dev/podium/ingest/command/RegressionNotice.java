package dev.podium.ingest.command;

import dev.podium.ingest.history.ChangePointRow;
import dev.podium.ingest.history.FoundStep;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * What the regression webhook POSTs: {@code type} "podium.regression", a stable {@code id} (the same on every delivery of
 * this regression, to deduplicate on), and the step. The ratio is after ÷ before.
 */
public record RegressionNotice(String type, UUID id, Step change) {

    public static final String TYPE = "podium.regression";

    /** The step: its history, the first run at the new level, the levels and their ratio, its size in σ, the versions. */
    public record Step(
            String kind,
            String benchmark,
            String keyId,
            String metric,
            String deviceId,
            String unit,
            double before,
            double after,
            double ratio,
            double sigmas,
            int index,
            UUID runId,
            Instant at,
            String versionBefore,
            String versionAfter) {}

    public static RegressionNotice of(FoundStep found) {
        ChangePointRow r = found.step();
        return new RegressionNotice(
                TYPE,
                id(r),
                new Step(
                        r.kind(),
                        r.benchmark(),
                        r.history().keyId(),
                        r.history().metric(),
                        r.history().deviceId(),
                        r.unit(),
                        r.levelBefore(),
                        r.levelAfter(),
                        r.levelAfter() / r.levelBefore(),
                        found.sigmas(),
                        r.pointIndex(),
                        r.runId(),
                        r.startedAt(),
                        r.versionBefore(),
                        r.versionAfter()));
    }

    /** A name-based UUID of the history and the first run at the new level. */
    static UUID id(ChangePointRow r) {
        String name = String.join(
                "\n",
                TYPE,
                r.history().keyId(),
                r.history().metric(),
                r.history().deviceId(),
                r.runId().toString());
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
    }
}
