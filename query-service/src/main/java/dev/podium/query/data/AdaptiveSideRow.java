package dev.podium.query.data;

import java.util.Map;
import java.util.UUID;

/**
 * One side of an adaptive campaign ({@code campaign_adaptive_side}) with where its campaign stands: the side's pool and
 * parameters, and its counted runs and requested jobs.
 */
public record AdaptiveSideRow(
        UUID campaignId,
        AdaptiveProgress progress,
        int side,
        String pool,
        Map<String, String> parameters,
        int runs,
        int jobs) {}
