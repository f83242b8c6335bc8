package dev.podium.events.layeringfixture;

import dev.podium.ingest.layeringfixture.IngestCallingQuery;

/** Breaks "events depends on nothing of ours" on purpose; LayeringTest shows the rule catches it. */
public final class ContractReachingIntoIngest {
    public Object reach() {
        return new IngestCallingQuery();
    }
}
