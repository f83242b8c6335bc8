package dev.podium.agent.workload;

import dev.podium.agent.job.JobDefinition;
import dev.podium.agent.job.JobSpecException;
import dev.podium.agent.parse.ParseResult;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.Software;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * How one kind of job runs: its command, the comparison key's defaults, the devices it uses and the metric without which
 * a repetition is not a result. The shipped workloads ({@link ReferenceTraining}, {@link Inference}) are measured by the
 * agent and separate their warm-up; {@link ExternalCommand} runs whatever the spec names.
 */
public sealed interface Adapter permits ReferenceTraining, Inference, Matmul, ExternalCommand {

    /** The adapter names a job spec may give. */
    Set<String> NAMES = Set.of(ReferenceTraining.NAME, Inference.NAME, Matmul.NAME, ExternalCommand.NAME);

    static Adapter of(JobSpec spec) {
        return switch (spec.adapter()) {
            case ReferenceTraining.NAME -> new ReferenceTraining();
            case Inference.NAME -> new Inference();
            case Matmul.NAME -> new Matmul();
            case ExternalCommand.NAME -> new ExternalCommand(spec.command());
            default ->
                throw new JobSpecException(
                        "adapter", "must be one of " + new TreeSet<>(NAMES) + ", was '" + spec.adapter() + "'");
        };
    }

    /** Whether the agent ships this workload (no command in the spec, parameters checked, warm-up separated). */
    default boolean shipped() {
        return !(this instanceof ExternalCommand);
    }

    /** Fails with the parameter's name when a point asks for something the workload does not understand. */
    void check(Map<String, String> point);

    /** The command for one point; {@code scripts} is where the shipped scripts were extracted (unused by a command). */
    List<String> command(String python, Path scripts, Map<String, String> point, int warmupSteps);

    /** What the key and the run record take when the spec and the point do not say. */
    KeyDefaults defaults(JobDefinition job, Map<String, String> point);

    /** Whether the point runs on the host's CPU rather than its accelerator. */
    boolean cpuOnly(Map<String, String> point, boolean hostHasAccelerators);

    /** Accelerators per node the point occupies. */
    int devicesPerNode(JobSpec spec, Map<String, String> point);

    /** Steps (or requests) a repetition reports, warm-up included; 0 when unknown. */
    long totalSteps(JobSpec spec, Map<String, String> point);

    /** The metric a repetition must report to count; empty: any metric. */
    Optional<String> requiredMetric(Map<String, String> point);

    /**
     * The point as the comparison key and the run record show it; a workload whose parameter names a choice the host
     * resolves (the compiler) shows what it resolved to, given the software the point runs with.
     */
    default Map<String, String> keyed(Map<String, String> point, Software software) {
        return point;
    }

    /** Why a repetition's own report contradicts what the key says ran, if it does. */
    default Optional<String> contradiction(Map<String, String> keyed, ParseResult parsed) {
        return Optional.empty();
    }

    /**
     * The key's defaults: model, scenario, dataset, precision, total accelerators and input size, each null when the
     * adapter knows nothing better than the spec.
     */
    record KeyDefaults(
            String model,
            String scenario,
            String dataset,
            String precision,
            Integer totalAccelerators,
            Integer inputSize) {}
}
