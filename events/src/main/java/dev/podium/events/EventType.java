package dev.podium.events;

import dev.podium.events.admin.AgentKeyIssued;
import dev.podium.events.admin.AgentKeyRevoked;
import dev.podium.events.admin.CatalogEntryHidden;
import dev.podium.events.admin.ResultRetracted;
import dev.podium.events.agent.AgentEvent;
import dev.podium.events.agent.AgentRegistered;
import dev.podium.events.job.CampaignCreated;
import dev.podium.events.job.CampaignEvent;
import dev.podium.events.job.JobAssigned;
import dev.podium.events.job.JobCancelled;
import dev.podium.events.job.JobEvent;
import dev.podium.events.job.JobLeaseExpired;
import dev.podium.events.job.JobRequested;
import dev.podium.events.published.PublishedClaimImported;
import dev.podium.events.published.PublishedEvent;
import dev.podium.events.run.JobClaimed;
import dev.podium.events.run.MetricSampled;
import dev.podium.events.run.RunCancelled;
import dev.podium.events.run.RunCompleted;
import dev.podium.events.run.RunEvent;
import dev.podium.events.run.RunFailed;
import dev.podium.events.run.RunProgress;
import dev.podium.events.run.RunStarted;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/** Every event type of the contract, with its payload record and the schema versions ingest accepts. */
public enum EventType {
    AgentRegistered(AgentRegistered.class),
    RunStarted(RunStarted.class),
    RunProgress(RunProgress.class),
    MetricSampled(MetricSampled.class),
    RunCompleted(RunCompleted.class),
    RunFailed(RunFailed.class),
    RunCancelled(RunCancelled.class),
    JobClaimed(JobClaimed.class),
    CampaignCreated(CampaignCreated.class),
    JobRequested(JobRequested.class),
    JobAssigned(JobAssigned.class),
    JobLeaseExpired(JobLeaseExpired.class),
    JobCancelled(JobCancelled.class),
    ResultRetracted(ResultRetracted.class),
    AgentKeyIssued(AgentKeyIssued.class),
    AgentKeyRevoked(AgentKeyRevoked.class),
    CatalogEntryHidden(CatalogEntryHidden.class),
    PublishedClaimImported(PublishedClaimImported.class);

    private final Class<? extends Event> payloadType;

    EventType(Class<? extends Event> payloadType) {
        this.payloadType = payloadType;
    }

    public Class<? extends Event> payloadType() {
        return payloadType;
    }

    /** The kind of stream events of this type belong on. */
    public StreamKind streamKind() {
        if (RunEvent.class.isAssignableFrom(payloadType)) {
            return StreamKind.RUN;
        }
        if (AgentEvent.class.isAssignableFrom(payloadType)) {
            return StreamKind.AGENT;
        }
        if (JobEvent.class.isAssignableFrom(payloadType)) {
            return StreamKind.JOB;
        }
        if (CampaignEvent.class.isAssignableFrom(payloadType)) {
            return StreamKind.CAMPAIGN;
        }
        if (PublishedEvent.class.isAssignableFrom(payloadType)) {
            return StreamKind.PUBLISHED;
        }
        return StreamKind.ADMIN;
    }

    /** Schema versions this build can read; older ones are upcast by the codec. */
    public Set<Integer> knownVersions() {
        return Set.of(1);
    }

    public static Optional<EventType> byName(String name) {
        return Arrays.stream(values()).filter(t -> t.name().equals(name)).findFirst();
    }

    public static EventType of(Event payload) {
        return Arrays.stream(values())
                .filter(t -> t.payloadType == payload.getClass())
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no event type for " + payload.getClass()));
    }
}
