package dev.podium.query.stats;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;

/**
 * A step in one history (comparison key, metric, device): the level before and after, their ratio (after ÷ before), its
 * size in noise σ, whether it is a regression or an improvement given the metric's direction, the first run at the new
 * level with its time and framework version, and the version of the run before it.
 */
public record Change(
        String kind,
        String benchmark,
        String keyId,
        String metric,
        String deviceId,
        String deviceLabel,
        String unit,
        double before,
        double after,
        double ratio,
        double sigmas,
        int index,
        UUID runId,
        Instant at,
        String versionBefore,
        String versionAfter,
        String historyLink) {

    public static final String REGRESSION = "regression";
    public static final String IMPROVEMENT = "improvement";

    public boolean regression() {
        return REGRESSION.equals(kind);
    }

    /** The change in percent, signed as after vs before: "-8.0%". */
    public String percent() {
        return String.format(Locale.ROOT, "%+.1f%%", (ratio - 1) * 100);
    }

    public String versions() {
        if (versionBefore == null && versionAfter == null) {
            return "—";
        }
        return Objects.equals(versionBefore, versionAfter)
                ? "same version " + versionAfter
                : (versionBefore == null ? "?" : versionBefore) + " → " + (versionAfter == null ? "?" : versionAfter);
    }
}
