package dev.podium.agent.detect;

/** One accelerator as a vendor tool reported it, before devices of the same model are grouped. */
public record DetectedDevice(
        String vendor, String model, long memoryBytes, String driver, String firmware, String runtime, String busId) {}
