package dev.podium.agent.job;

import dev.podium.events.model.Metric;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The result of one point of a job's matrix: one run stream. */
public record RunOutcome(UUID runId, Map<String, String> point, Status status, List<Metric> metrics, String reason) {

    public enum Status {
        COMPLETED,
        FAILED,
        CANCELLED
    }
}
