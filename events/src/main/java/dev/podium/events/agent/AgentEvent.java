package dev.podium.events.agent;

import dev.podium.events.Event;
import dev.podium.events.StreamKind;

/** Events of an agent stream ({@code agent/<agent id>/<boot uuid>}), written by that agent. */
public sealed interface AgentEvent extends Event permits AgentRegistered {

    @Override
    default StreamKind streamKind() {
        return StreamKind.AGENT;
    }
}
