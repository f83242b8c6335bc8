package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;

/**
 * One kind of accelerator in a run. {@code model} is what the vendor tool reported; {@code deviceId} is the canonical id from
 * {@link dev.podium.events.device.DeviceAliases}. {@code runtime} is e.g. "CUDA 12.4", "ROCm 6.1" or "SynapseAI 1.16".
 */
public record Accelerator(
        String vendor,
        String model,
        String deviceId,
        @NonNegative long memoryBytes,
        @NonNegative int countPerNode,
        @NonNegative int total,
        @Nullable String interconnect,
        @Nullable String driver,
        @Nullable String firmware,
        @Nullable String runtime) {}
