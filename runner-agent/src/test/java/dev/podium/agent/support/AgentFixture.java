package dev.podium.agent.support;

import dev.podium.events.sign.EventSigner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** An agent identity and home directory for tests. */
public record AgentFixture(String agentId, String keyId, String secretText, Path keyFile, Path home) {

    public static AgentFixture create(Path dir, String agentId) throws IOException {
        return create(dir, agentId, null);
    }

    /** An identity whose key file also holds the command side's public key (when not null), as issued keys do. */
    public static AgentFixture create(Path dir, String agentId, CommandSide commandSide) throws IOException {
        String secret = EventSigner.newSecret();
        Path keyFile = dir.resolve(agentId + ".key");
        Files.writeString(
                keyFile,
                "agent.id=" + agentId + "\nkey.id=" + agentId + "-k1\nkey.secret=" + secret + "\n"
                        + (commandSide == null ? "" : "command.public.key=" + commandSide.publicKeyText() + "\n"));
        // As podium-admin and ./podium up write it: the agent refuses a key file others may read.
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
        return new AgentFixture(agentId, agentId + "-k1", secret, keyFile, dir.resolve(agentId + "-home"));
    }

    public byte[] secret() {
        return EventSigner.secretBytes(secretText);
    }

    public Path job(String name, String yaml) throws IOException {
        Path p = home.getParent().resolve(name);
        Files.writeString(p, yaml);
        return p;
    }
}
