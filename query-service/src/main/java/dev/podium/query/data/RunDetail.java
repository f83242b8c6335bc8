package dev.podium.query.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.UUID;

/** Everything proj_run holds about one run; the JSON columns stay as trees. */
public record RunDetail(
        RunSummary summary,
        String streamId,
        UUID jobId,
        Integer leaseEpoch,
        String hostKey,
        JsonNode workload,
        JsonNode software,
        JsonNode accelerators,
        JsonNode host,
        Instant finishedAt,
        JsonNode validity,
        JsonNode failure) {}
