package dev.podium.agent.config;

import java.nio.file.Path;

/**
 * Who the agent is and where it publishes. The secret stays in memory only; it is never journaled or logged.
 *
 * @param bootstrapServers Kafka bootstrap servers, or null when the agent only journals
 * @param journalMaxBytes  bound of the journal on disk
 */
public record AgentSettings(
        String agentId,
        String keyId,
        byte[] secret,
        String pool,
        String bootstrapServers,
        Path journalDir,
        long journalMaxBytes) {

    public static final long DEFAULT_JOURNAL_MAX_BYTES = 256L * 1024 * 1024;

    @Override
    public String toString() {
        return "AgentSettings[agentId=" + agentId + ", keyId=" + keyId + ", pool=" + pool + ", bootstrapServers="
                + bootstrapServers + ", journalDir=" + journalDir + "]";
    }
}
