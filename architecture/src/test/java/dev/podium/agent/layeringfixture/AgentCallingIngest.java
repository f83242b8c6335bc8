package dev.podium.agent.layeringfixture;

import dev.podium.ingest.layeringfixture.IngestCallingQuery;

/** Breaks "runner-agent uses no other service's code" on purpose; LayeringTest shows the rule catches it. */
public final class AgentCallingIngest {
    public Object call() {
        return IngestCallingQuery.class;
    }
}
