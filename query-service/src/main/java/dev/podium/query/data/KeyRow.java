package dev.podium.query.data;

import dev.podium.events.model.ComparisonKey;

/** A comparison key as stored in proj_comparison_key. */
public record KeyRow(String keyId, String benchmark, String canonical, ComparisonKey key) {
}
