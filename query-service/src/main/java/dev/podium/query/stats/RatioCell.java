package dev.podium.query.stats;

/**
 * The ratio interval of one comparison cell: a device and source under one key against the baseline device under the same
 * key and source. {@code interval} is null when there is none, and {@code note} says why (a published figure carries no
 * per-repetition values; fewer than two repetitions). {@code equivalence} is its verdict at the page's margin, null
 * without an interval.
 */
public record RatioCell(
        String deviceId, String source, String keyId, RatioInterval interval, Equivalence equivalence, String note) {}
