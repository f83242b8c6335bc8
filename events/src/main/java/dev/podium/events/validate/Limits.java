package dev.podium.events.validate;

import java.time.Duration;

/** The stated limits of the contract. Producers in other languages find the same numbers in the JSON Schema files. */
public final class Limits {

    /** Largest record accepted, equal to the topic's {@code max.message.bytes}. */
    public static final int MAX_RECORD_BYTES = 1024 * 1024;
    /** Longest ordinary string, in characters. */
    public static final int MAX_STRING_CHARS = 1024;
    /** Longest free-text string (quotes, log tails, commands), in characters. */
    public static final int MAX_TEXT_CHARS = 16 * 1024;
    /** Most elements in one array (per-repetition values, samples, metrics). */
    public static final int MAX_ARRAY_ITEMS = 10_000;
    /** Most entries in one map (parameters, library versions, environment). */
    public static final int MAX_MAP_ENTRIES = 256;
    /** Deepest nesting of JSON objects and arrays. */
    public static final int MAX_NESTING_DEPTH = 32;
    /**
     * Largest magnitude of a typed number (metric values, statistics, samples): far above any real measurement (a
     * training run's FLOP count is about 1e25), far below where the squares of 10,000 such values summed for a standard
     * deviation overflow a double (about 1e152).
     */
    public static final double MAX_NUMBER_MAGNITUDE = 1e150;
    /** How far ahead of ingest's clock {@code occurred_at} may be. */
    public static final Duration MAX_CLOCK_AHEAD = Duration.ofDays(1);

    private Limits() {}
}
