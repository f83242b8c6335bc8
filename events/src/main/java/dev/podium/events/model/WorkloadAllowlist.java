package dev.podium.events.model;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What jobs a pool may run: the adapters it allows, and the executables a {@code command} job may start. Ingest holds
 * one per pool and refuses a campaign outside it before any job is signed; each agent holds its own and refuses a signed
 * job outside it, so neither an {@code operate} token nor the command side's key alone runs an arbitrary command on an
 * agent that did not allow it.
 * <p>
 * An entry of {@code commands} that ends in {@code /} is a directory: argv[0] must be an absolute, normalized path below
 * it (no {@code .} or {@code ..} segments, no doubled slashes). Any other entry must equal argv[0] exactly. argv[0] must
 * be literal: a {@code {placeholder}} there would let a point of the matrix choose the executable. Allowing an
 * interpreter (bash, python3) allows whatever it is told to run.
 *
 * @param adapters the shipped workloads allowed ({@value #REFERENCE}, {@value #INFERENCE})
 * @param commands the executables a {@value JobSpec#COMMAND_ADAPTER} job may start; none: no command jobs
 */
public record WorkloadAllowlist(Set<String> adapters, List<String> commands) {

    public static final String REFERENCE = "reference";
    public static final String INFERENCE = "inference";
    public static final String MAMF = "mamf";

    /** The shipped workloads, and no command. */
    public static final WorkloadAllowlist DEFAULT =
            new WorkloadAllowlist(Set.of(REFERENCE, INFERENCE, MAMF), List.of());

    public WorkloadAllowlist {
        adapters = Set.copyOf(adapters);
        commands = List.copyOf(commands);
    }

    /** Why {@code pool} may not run {@code spec}, naming the pool and what it allows; empty when it may. */
    public Optional<String> refusal(String pool, JobSpec spec) {
        String adapter = spec.adapter() == null ? "" : spec.adapter().strip();
        if (!JobSpec.COMMAND_ADAPTER.equals(adapter)) {
            return adapters.contains(adapter)
                    ? Optional.empty()
                    : Optional.of("pool " + pool + " does not allow adapter '" + adapter + "' (" + allowed() + ")");
        }
        List<String> command = spec.command();
        if (command == null || command.isEmpty() || command.get(0) == null) {
            return Optional.of("a command job for pool " + pool + " names no executable");
        }
        String executable = command.get(0);
        if (commands.isEmpty()) {
            return Optional.of(
                    "pool " + pool + " allows no command jobs, so not '" + executable + "' (" + allowed() + ")");
        }
        if (executable.contains("{")) {
            return Optional.of(
                    "a command job's executable must be literal, not '" + executable + "' (pool " + pool + ")");
        }
        return commands.stream().anyMatch(entry -> allows(entry, executable))
                ? Optional.empty()
                : Optional.of("pool " + pool + " does not allow the command '" + executable + "' (" + allowed() + ")");
    }

    private static boolean allows(String entry, String executable) {
        if (!entry.endsWith("/")) {
            return entry.equals(executable);
        }
        try {
            return executable.startsWith(entry)
                    && executable.length() > entry.length()
                    && Path.of(executable).isAbsolute()
                    && Path.of(executable).normalize().toString().equals(executable);
        } catch (InvalidPathException e) {
            return false; // a NUL byte, say: no file of this name can be started
        }
    }

    private String allowed() {
        return "allowed: adapters " + new TreeSet<>(adapters)
                + (commands.isEmpty() ? ", no commands" : ", commands " + commands);
    }
}
