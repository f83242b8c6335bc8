package dev.podium.query.data;

/**
 * Where an adaptive campaign stands ({@code campaign_adaptive}): its state, the ratio's 95% half-width it aims at and
 * the one its last decision measured (percent; null until both sides have 3 runs), the jobs it requested and the runs
 * it counted, both sides together, a side requesting at most {@code maxRuns} jobs.
 */
public record AdaptiveProgress(
        AdaptiveState state,
        double targetHalfWidthPct,
        Double halfWidthPct,
        int jobsRequested,
        int runsCounted,
        int maxRuns) {}
