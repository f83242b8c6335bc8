package dev.podium.query.serving;

import java.util.Locale;

/** One measured leaderboard row (proj_leaderboard_row) of the serving view's two metrics. */
record ServingRow(
        String keyId,
        String metric,
        String deviceId,
        String deviceLabel,
        String direction,
        String unit,
        int runs,
        int n,
        Double mean,
        Double ci95Low,
        Double ci95High) {

    boolean higherIsBetter() {
        return !direction.toUpperCase(Locale.ROOT).startsWith("LOWER");
    }
}
