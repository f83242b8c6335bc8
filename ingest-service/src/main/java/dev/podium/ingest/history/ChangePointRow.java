package dev.podium.ingest.history;

import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code proj_change_point}: the step of {@code history} whose first run at the new level is {@code runId},
 * at index {@code pointIndex} of the history, with the levels before and after and the step's size in noise σ.
 */
public record ChangePointRow(
        HistoryId history,
        UUID runId,
        String kind,
        String benchmark,
        String unit,
        double levelBefore,
        double levelAfter,
        double sigmas,
        int pointIndex,
        Instant startedAt,
        String versionBefore,
        String versionAfter) {

    public static final String REGRESSION = "regression";
    public static final String IMPROVEMENT = "improvement";

    public boolean regression() {
        return REGRESSION.equals(kind);
    }
}
