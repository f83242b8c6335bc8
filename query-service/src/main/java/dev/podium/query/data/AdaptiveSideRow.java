package dev.podium.query.data;

import java.util.Map;
import java.util.UUID;

/**
 * One side of an adaptive campaign ({@code campaign_adaptive_side}) with its campaign's {@code campaign_adaptive} row:
 * {@code halfWidthPct} is the ratio's 95% half-width at the last decision (null until both sides have 3 runs), {@code
 * runs} and {@code jobs} the side's counted runs and requested jobs, of at most {@code maxRuns}.
 */
public record AdaptiveSideRow(
        UUID campaignId,
        AdaptiveState state,
        double targetHalfWidthPct,
        Double halfWidthPct,
        int jobsRequested,
        int runsCounted,
        int maxRuns,
        int side,
        String pool,
        Map<String, String> parameters,
        int runs,
        int jobs) {}
