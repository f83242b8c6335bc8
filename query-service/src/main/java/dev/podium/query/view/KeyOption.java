package dev.podium.query.view;

import java.util.Map;

/**
 * A comparison key offered on a page: its exact canonical text (for the API and the key's own page), the label a page shows
 * ({@link dev.podium.events.model.ComparisonKey#label}), its dimensions, and whether it is the one shown.
 */
public record KeyOption(
        String keyId, String canonical, String label, Map<String, String> dimensions, boolean selected, String link) {}
