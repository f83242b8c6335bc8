package dev.podium.events.job;

import dev.podium.events.Event;
import dev.podium.events.StreamKind;
import java.util.UUID;

/** Events of a job stream, written by ingest's command side and relayed to agents on {@code podium.jobs}. */
public sealed interface JobEvent extends Event permits JobRequested, JobAssigned, JobLeaseExpired, JobCancelled {

    UUID jobId();

    @Override
    default StreamKind streamKind() {
        return StreamKind.JOB;
    }
}
