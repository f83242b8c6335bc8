package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;

/** The machine a run executed on, as the agent fingerprinted it. {@code nodes} is above 1 for multi-node runs. */
public record Host(
        String hostname,
        @Nullable String machineId,
        String cpuModel,
        @NonNegative int sockets,
        @NonNegative int cores,
        @NonNegative int threads,
        @NonNegative long memoryBytes,
        String os,
        String kernel,
        @NonNegative int nodes) {}
