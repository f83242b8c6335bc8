package dev.podium.ingest.history;

import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code proj_change_point}: the step of the history ({@code keyId}, {@code metric}, {@code deviceId}) whose
 * first run at the new level is {@code runId}, at index {@code pointIndex} of the history, with the levels before and
 * after. Its components are the table's columns; its size in noise σ is derived from the history's σ
 * ({@code proj_history.sigma}), which moves with every point the history gains.
 */
public record ChangePointRow(
        String keyId,
        String metric,
        String deviceId,
        UUID runId,
        String kind,
        String benchmark,
        String unit,
        double levelBefore,
        double levelAfter,
        int pointIndex,
        Instant startedAt,
        String versionBefore,
        String versionAfter) {

    public static final String REGRESSION = "regression";
    public static final String IMPROVEMENT = "improvement";

    public HistoryId history() {
        return new HistoryId(keyId, metric, deviceId);
    }

    public boolean regression() {
        return REGRESSION.equals(kind);
    }
}
