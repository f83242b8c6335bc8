package dev.podium.agent.workload;

import dev.podium.agent.detect.ToolRunner;
import java.util.List;
import java.util.Map;

/**
 * Runs a program a job chose (a command job's {@code python}, which the software probe asks) the way its workload runs:
 * isolated, in the run directory, with the workload's environment, never the agent's.
 */
public final class IsolatedTools extends ToolRunner {

    private final Isolation isolation;
    private final Map<String, String> environment;

    public IsolatedTools(Isolation isolation, Map<String, String> environment) {
        this.isolation = isolation;
        this.environment = Map.copyOf(isolation.environment(environment));
    }

    @Override
    protected ProcessBuilder builder(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(isolation.command(command));
        pb.environment().clear();
        pb.environment().putAll(environment);
        pb.directory(isolation.runDirectory().toFile());
        return pb;
    }
}
