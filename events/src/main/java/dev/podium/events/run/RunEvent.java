package dev.podium.events.run;

import dev.podium.events.Event;
import dev.podium.events.StreamKind;
import java.util.UUID;

/** Events of a run stream, written by the agent that created the run. */
public sealed interface RunEvent extends Event
        permits RunStarted, RunProgress, MetricSampled, RunCompleted, RunFailed, RunCancelled, JobClaimed {

    UUID runId();

    @Override
    default StreamKind streamKind() {
        return StreamKind.RUN;
    }
}
