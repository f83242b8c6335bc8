package dev.podium.query.view;

/** One ranked device on a leaderboard. */
public record LeaderboardEntry(
        int rank,
        String deviceId,
        String deviceLabel,
        String source,
        int runs,
        int n,
        Double mean,
        Double ci95Low,
        Double ci95High,
        Double best,
        Double cv) {}
