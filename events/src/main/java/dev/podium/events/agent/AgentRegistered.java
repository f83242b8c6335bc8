package dev.podium.events.agent;

import dev.podium.events.model.Accelerator;
import dev.podium.events.model.Host;
import dev.podium.events.model.Software;
import dev.podium.events.validate.Nullable;
import java.util.List;
import java.util.UUID;

/** An agent process started: who it is, which pool it serves, and the host it found. */
public record AgentRegistered(
        String agentId,
        UUID bootId,
        String pool,
        String agentVersion,
        Host host,
        List<Accelerator> accelerators,
        @Nullable Software software)
        implements AgentEvent {}
