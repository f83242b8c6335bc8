package dev.podium.agent.config;

import dev.podium.agent.publish.KafkaLogin;
import java.nio.file.Path;
import java.security.PublicKey;

/**
 * Who the agent is and where it publishes. The secret stays in memory only; it is never journaled or logged.
 *
 * @param bootstrapServers Kafka bootstrap servers, or null when the agent only journals
 * @param kafkaLogin       the key's own Kafka login, or null where the broker needs none
 * @param journalMaxBytes  bound of the journal on disk
 * @param commandKey       the command side's Ed25519 public key that signs podium.jobs, or null (key file from before
 *                         signed commands: the daemon then takes no jobs)
 */
public record AgentSettings(
        String agentId,
        String keyId,
        byte[] secret,
        String pool,
        String bootstrapServers,
        KafkaLogin kafkaLogin,
        Path journalDir,
        long journalMaxBytes,
        PublicKey commandKey) {

    public static final long DEFAULT_JOURNAL_MAX_BYTES = 256L * 1024 * 1024;

    @Override
    public String toString() {
        return "AgentSettings[agentId=" + agentId + ", keyId=" + keyId + ", pool=" + pool + ", bootstrapServers="
                + bootstrapServers + ", kafkaLogin=" + kafkaLogin + ", journalDir=" + journalDir + "]";
    }
}
