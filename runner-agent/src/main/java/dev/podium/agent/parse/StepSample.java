package dev.podium.agent.parse;

/** One training step reported through the JSON-lines protocol. */
public record StepSample(long step, boolean warmup, int samples, double seconds, double samplesPerSecond) {}
