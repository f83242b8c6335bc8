package dev.podium.events.model;

import dev.podium.events.validate.Nullable;
import java.util.Map;

/** The software a run used: framework, library versions, container image and the workload's own commit. */
public record Software(
        @Nullable String framework,
        @Nullable String frameworkVersion,
        @Nullable String pythonVersion,
        @Nullable Map<String, String> libraries,
        @Nullable String containerImageDigest,
        @Nullable String workloadCommit) {}
