package dev.podium.agent.idfixture;

import java.util.UUID;

/** Breaks "ids are minted time-ordered" on purpose; MintedIdsTest shows the rule catches it. */
public final class AgentMintingRandomIds {
    public UUID runId() {
        return UUID.randomUUID();
    }
}
