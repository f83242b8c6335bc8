package dev.podium.events.model;

import dev.podium.events.validate.Nullable;

/** The machine a run executed on, as the agent fingerprinted it. {@code nodes} is above 1 for multi-node runs. */
public record Host(
        String hostname,
        @Nullable String machineId,
        String cpuModel,
        int sockets,
        int cores,
        int threads,
        long memoryBytes,
        String os,
        String kernel,
        int nodes) {
}
