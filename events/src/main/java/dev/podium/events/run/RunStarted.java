package dev.podium.events.run;

import dev.podium.events.model.Accelerator;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.Host;
import dev.podium.events.model.Provenance;
import dev.podium.events.model.Software;
import dev.podium.events.model.Workload;
import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.util.List;
import java.util.UUID;

/**
 * A run began. {@code jobId} and {@code leaseEpoch} are set when the run executes a granted job; a run the agent started
 * itself (a {@code run} or {@code submit} command) has neither. {@code occurredAt} of this event is the run's place on the
 * history axis. {@code devices} is each accelerator's identity and power and clock configuration, where the agent could
 * read them (null from agents before it, and on hosts without an accelerator tool).
 */
public record RunStarted(
        UUID runId,
        @Nullable UUID jobId,
        @Nullable @NonNegative Integer leaseEpoch,
        Host host,
        List<Accelerator> accelerators,
        @Nullable Software software,
        Workload workload,
        ComparisonKey key,
        @NonNegative int repetitions,
        @NonNegative int warmupSteps,
        Provenance provenance,
        @Nullable List<AcceleratorDevice> devices)
        implements RunEvent {}
