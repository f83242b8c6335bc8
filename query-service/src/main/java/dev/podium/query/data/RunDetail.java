package dev.podium.query.data;

import com.fasterxml.jackson.databind.JsonNode;

/** Everything proj_run holds about one run; the JSON columns stay as trees. */
public record RunDetail(
        RunSummary summary,
        String streamId,
        java.util.UUID jobId,
        Integer leaseEpoch,
        String hostKey,
        JsonNode workload,
        JsonNode software,
        JsonNode accelerators,
        JsonNode host,
        java.time.Instant finishedAt,
        JsonNode validity,
        JsonNode failure) {}
