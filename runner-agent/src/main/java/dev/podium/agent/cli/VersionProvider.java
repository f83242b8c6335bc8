package dev.podium.agent.cli;

import dev.podium.agent.AgentVersion;
import picocli.CommandLine;

final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"podium-agent " + AgentVersion.VERSION};
    }
}
