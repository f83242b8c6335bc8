package dev.podium.ingest.layeringfixture;

import dev.podium.query.layeringfixture.QueryCallingAgent;

/** Breaks "ingest-service uses no other service's code" on purpose; LayeringTest shows the rule catches it. */
public final class IngestCallingQuery {
    public Object call() {
        return new QueryCallingAgent();
    }
}
