package dev.podium.events.model;

import dev.podium.events.validate.NonNegative;
import dev.podium.events.validate.Nullable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A benchmark job as agents receive it. {@code adapter} is {@code reference} (the PyTorch workload the agent ships) or
 * {@code command} (any command, possibly launching a multi-node run). {@code matrix} maps a parameter to the values to sweep.
 * {@code warmup} says how a command's figures leave out its warm-up: {@value #WARMUP_DECLARED} (the tool does it, as
 * optimum-habana's {@code throughput_warmup_steps}; the run shows it as declared) or {@value #WARMUP_VERIFIED} (the agent
 * computes the throughput from the tool's per-step log after {@code warmupSteps} steps; shown as verified); absent, a
 * command run is not known to exclude its warm-up. {@code adaptive}, on a campaign's spec, asks for runs beyond the first
 * until a ratio is measured closely enough ({@link Adaptive}); {@code repetitions} stays what each run repeats.
 */
public record JobSpec(
        String benchmark,
        String adapter,
        @Nullable List<String> command,
        @Nullable String parser,
        Map<String, String> parameters,
        Map<String, List<String>> matrix,
        @NonNegative int repetitions,
        @NonNegative int warmupSteps,
        @NonNegative int timeoutSeconds,
        Map<String, String> environment,
        @NonNegative int nodes,
        @NonNegative int devicesPerNode,
        @Nullable String pool,
        @Nullable String warmup,
        @Nullable Adaptive adaptive) {

    /** The adapter of any command: the one whose output the agent does not know beforehand. */
    public static final String COMMAND_ADAPTER = "command";

    public static final String WARMUP_DECLARED = "excluded-by-tool";
    public static final String WARMUP_VERIFIED = "from-step-log";

    /**
     * The parser this job's output is read with: the one it names, else {@link #defaultParser}. A job from a file names
     * one always (the agent's reader settles it); a campaign's job may not.
     */
    public String parserOrDefault() {
        return parser != null ? parser.strip() : defaultParser(adapter);
    }

    /**
     * The parser of a job that names none and gives no regex templates: JSON lines for the workloads the agent ships
     * (they print them), the automatic parser for a command.
     */
    public static String defaultParser(String adapter) {
        return COMMAND_ADAPTER.equals(adapter == null ? null : adapter.strip()) ? "auto" : "jsonl";
    }

    /** A job that is not adaptive. */
    public JobSpec(
            String benchmark,
            String adapter,
            List<String> command,
            String parser,
            Map<String, String> parameters,
            Map<String, List<String>> matrix,
            int repetitions,
            int warmupSteps,
            int timeoutSeconds,
            Map<String, String> environment,
            int nodes,
            int devicesPerNode,
            String pool,
            String warmup) {
        this(
                benchmark,
                adapter,
                command,
                parser,
                parameters,
                matrix,
                repetitions,
                warmupSteps,
                timeoutSeconds,
                environment,
                nodes,
                devicesPerNode,
                pool,
                warmup,
                null);
    }

    /** This spec with {@code adaptive} in place of its own. */
    public JobSpec withAdaptive(Adaptive adaptive) {
        return new JobSpec(
                benchmark,
                adapter,
                command,
                parser,
                parameters,
                matrix,
                repetitions,
                warmupSteps,
                timeoutSeconds,
                environment,
                nodes,
                devicesPerNode,
                pool,
                warmup,
                adaptive);
    }

    /** This spec with parameter {@code name} set to {@code value}, whatever map it was built with. */
    public JobSpec withParameter(String name, String value) {
        Map<String, String> set = new LinkedHashMap<>(parameters);
        set.put(name, value);
        return new JobSpec(
                benchmark,
                adapter,
                command,
                parser,
                set,
                matrix,
                repetitions,
                warmupSteps,
                timeoutSeconds,
                environment,
                nodes,
                devicesPerNode,
                pool,
                warmup,
                adaptive);
    }

    /** A job without a warm-up declaration. */
    public JobSpec(
            String benchmark,
            String adapter,
            List<String> command,
            String parser,
            Map<String, String> parameters,
            Map<String, List<String>> matrix,
            int repetitions,
            int warmupSteps,
            int timeoutSeconds,
            Map<String, String> environment,
            int nodes,
            int devicesPerNode,
            String pool) {
        this(
                benchmark,
                adapter,
                command,
                parser,
                parameters,
                matrix,
                repetitions,
                warmupSteps,
                timeoutSeconds,
                environment,
                nodes,
                devicesPerNode,
                pool,
                null);
    }
}
