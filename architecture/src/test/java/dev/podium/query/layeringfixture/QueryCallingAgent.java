package dev.podium.query.layeringfixture;

import dev.podium.agent.layeringfixture.AgentCallingIngest;

/** Breaks "query-service uses no other service's code" on purpose; LayeringTest shows the rule catches it. */
public final class QueryCallingAgent {
    public Object call() {
        return new AgentCallingIngest();
    }
}
