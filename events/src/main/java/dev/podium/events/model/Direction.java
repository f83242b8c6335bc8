package dev.podium.events.model;

/** Whether a larger value of a metric is better (throughput) or worse (latency, time per image). */
public enum Direction {
    HIGHER_IS_BETTER,
    LOWER_IS_BETTER
}
