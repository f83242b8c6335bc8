package dev.podium.query.view;

/**
 * One ranked device on a leaderboard; {@code knownDevice} is false for a device id the alias table does not know (text
 * an agent chose), marked "unknown device" and ranked after every known one.
 */
public record LeaderboardEntry(
        int rank,
        String deviceId,
        String deviceLabel,
        boolean knownDevice,
        String source,
        int runs,
        int n,
        Double mean,
        Double ci95Low,
        Double ci95High,
        Double best,
        Double cv) {}
