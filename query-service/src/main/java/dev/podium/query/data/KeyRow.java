package dev.podium.query.data;

import dev.podium.events.model.ComparisonKey;
import java.util.Collections;
import java.util.Map;

/**
 * A comparison key as stored in proj_comparison_key, with its dimension map worked out once per read: a leaderboard or
 * comparison request looks its keys' dimensions up many times.
 */
public record KeyRow(
        String keyId, String benchmark, String canonical, ComparisonKey key, Map<String, String> dimensions) {

    public KeyRow(String keyId, String benchmark, String canonical, ComparisonKey key) {
        this(keyId, benchmark, canonical, key, Collections.unmodifiableMap(key.dimensions()));
    }
}
