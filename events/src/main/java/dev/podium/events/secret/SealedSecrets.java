package dev.podium.events.secret;

import dev.podium.events.validate.Text;

/**
 * Secret environment values of one grant, readable only by the agent that holds key {@code keyId}: AES-256-GCM under a
 * key derived from that agent key's secret ({@link JobSecrets}), bound to the job, run and lease epoch. Base64 fields.
 */
public record SealedSecrets(
        String keyId, String nonce, @Text String ciphertext) {}
