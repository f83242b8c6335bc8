package dev.podium.agent.detect;

import dev.podium.events.model.Accelerator;
import dev.podium.events.model.Host;
import dev.podium.events.model.Software;
import java.util.List;

/** What the agent found on its host: the machine, its accelerators (grouped by model) and the Python software stack. */
public record Fingerprint(Host host, List<Accelerator> accelerators, Software software, List<String> toolsFound) {}
