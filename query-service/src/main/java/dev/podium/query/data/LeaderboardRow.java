package dev.podium.query.data;

import java.time.Instant;

/** One row of proj_leaderboard_row: a device's statistics under one comparison key and metric, from one source. */
public record LeaderboardRow(
        String keyId,
        String metric,
        String deviceId,
        String source,
        String benchmark,
        String unit,
        String direction,
        int runs,
        int n,
        Double mean,
        Double ci95Low,
        Double ci95High,
        Double best,
        Double cv,
        Instant lastRunAt) {}
