package dev.podium.agent.workload;

import dev.podium.agent.job.CommandLine;
import dev.podium.agent.job.JobDefinition;
import dev.podium.events.model.JobSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Any command the spec names ({param} placeholders filled from the point), read by the spec's parser. */
public record ExternalCommand(List<String> template) implements Adapter {

    public static final String NAME = JobSpec.COMMAND_ADAPTER;

    @Override
    public void check(Map<String, String> point) {
        // a command takes any parameter: its placeholders and the key's dimensions
    }

    @Override
    public List<String> command(String python, Path scripts, Map<String, String> point, int warmupSteps) {
        return CommandLine.fill(template, point);
    }

    @Override
    public KeyDefaults defaults(JobDefinition job, Map<String, String> point) {
        return new KeyDefaults(null, null, null, null, null, null);
    }

    @Override
    public boolean cpuOnly(Map<String, String> point, boolean hostHasAccelerators) {
        return !hostHasAccelerators;
    }

    @Override
    public int devicesPerNode(JobSpec spec, Map<String, String> point) {
        return Math.max(spec.devicesPerNode(), 1);
    }

    @Override
    public long totalSteps(JobSpec spec, Map<String, String> point) {
        return 0;
    }

    @Override
    public Optional<String> requiredMetric(Map<String, String> point) {
        return Optional.empty();
    }
}
