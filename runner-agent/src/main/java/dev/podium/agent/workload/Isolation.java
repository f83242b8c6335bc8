package dev.podium.agent.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How this agent keeps its workloads away from its secrets (its key file, its Kafka login, the platform's state beside
 * it), decided once at start ({@link IsolationResolver}) and applied to every workload process:
 * <ul>
 *   <li>{@link Kind#USER}: the agent is root and drops each workload to a dedicated uid with {@code setpriv}; where root
 *       may also make namespaces, the workload runs in its own PID and mount namespaces too, with the hidden paths
 *       covered.
 *   <li>{@link Kind#NAMESPACE}: the agent is not root; each workload runs in new user, PID and mount namespaces
 *       ({@code unshare}): its {@code /proc} shows only its own processes, and the hidden paths (the key file's
 *       directory, the agent's home, {@code --hide}) are empty. A second user namespace inside locks those mounts, so the
 *       workload cannot unmount them.
 *   <li>{@link Kind#NONE}: neither is possible here; {@link #refusal} says why, and {@code command} jobs are refused.
 *   <li>{@link Kind#OFF}: the operator switched isolation off; workloads run as the agent, as before.
 * </ul>
 * The workload's working directory is {@code run/} inside the workload directory, which stays reachable and writable.
 */
public record Isolation(
        Kind kind, Path workDir, Optional<WorkloadUser> user, boolean namespaces, List<Path> hidden, String reason) {

    public enum Kind {
        USER,
        NAMESPACE,
        NONE,
        OFF
    }

    /** The workload user as {@code id} answered for it at start. */
    public record WorkloadUser(String name, int uid, int gid) {}

    /**
     * Mounts the hidden paths over, keeps the workload directory (opened before its parents are covered, and bound from
     * that open descriptor: a path would now name the empty cover) reachable,
     * then runs the rest. Positional arguments: run directory, workload directory, count of hidden paths, the hidden
     * paths, then the command. The command's {@code cd} is needed: a working directory inherited from before the
     * mounts would still lead to what they cover.
     */
    static final String SETUP = String.join(
            "\n",
            "set -eu",
            "run=$1 work=$2 n=$3",
            "shift 3",
            "exec 3<\"$work\"",
            "while [ \"$n\" -gt 0 ]; do",
            "  if [ -d \"$1\" ]; then mount -t tmpfs -o mode=0755,size=64k podium-hidden \"$1\";"
                    + " else mount --bind /dev/null \"$1\"; fi",
            "  shift; n=$((n - 1))",
            "done",
            "mkdir -p \"$work\"",
            "mount --no-canonicalize --bind /proc/self/fd/3 \"$work\"",
            "exec 3<&-",
            "cd \"$run\"",
            "exec \"$@\"");

    public Isolation {
        hidden = List.copyOf(hidden);
    }

    public static Isolation off(Path workDir) {
        return new Isolation(Kind.OFF, workDir, Optional.empty(), false, List.of(), "switched off (--isolation off)");
    }

    /** Whether workloads run apart from the agent's secrets. */
    public boolean isolates() {
        return kind == Kind.USER || kind == Kind.NAMESPACE;
    }

    /** The working directory of workloads. */
    public Path runDirectory() {
        return workDir.resolve("run");
    }

    /** Why a job of {@code adapter} may not run on this agent, if it may not: only the shipped workloads run unisolated. */
    public Optional<String> refusal(Adapter adapter) {
        if (kind != Kind.NONE || adapter.shipped()) {
            return Optional.empty();
        }
        return Optional.of("this agent runs command jobs only isolated from its secrets, and cannot here: " + reason);
    }

    /** The command line that runs {@code command} as this isolation says. */
    public List<String> command(List<String> command) {
        List<String> out = new ArrayList<>();
        switch (kind) {
            case USER -> {
                if (namespaces) {
                    out.addAll(List.of(
                            "unshare",
                            "--pid",
                            "--fork",
                            "--kill-child",
                            "--mount-proc",
                            "--mount",
                            "--propagation",
                            "private",
                            "--"));
                    setup(out);
                }
                WorkloadUser u = user.orElseThrow();
                out.addAll(List.of(
                        "setpriv",
                        "--reuid=" + u.uid(),
                        "--regid=" + u.gid(),
                        "--init-groups",
                        "--no-new-privs",
                        "--"));
            }
            case NAMESPACE -> {
                out.addAll(List.of(
                        "unshare",
                        "--user",
                        "--map-root-user",
                        "--pid",
                        "--fork",
                        "--kill-child",
                        "--mount-proc",
                        "--mount",
                        "--propagation",
                        "private",
                        "--"));
                setup(out);
                out.addAll(List.of("unshare", "--user", "--map-root-user", "--mount", "--"));
            }
            case NONE, OFF -> {
                // as the agent
            }
        }
        out.addAll(command);
        return out;
    }

    private void setup(List<String> out) {
        out.addAll(List.of(
                "sh",
                "-c",
                SETUP,
                "podium-isolate",
                runDirectory().toString(),
                workDir.toString(),
                Integer.toString(hidden.size())));
        hidden.forEach(p -> out.add(p.toString()));
    }

    /**
     * A workload's environment under this isolation: under a workload user, its home is the run directory (the
     * agent's home is not its to write) and its name is its own.
     */
    public Map<String, String> environment(Map<String, String> environment) {
        if (kind != Kind.USER) {
            return environment;
        }
        Map<String, String> out = new TreeMap<>(environment);
        WorkloadUser u = user.orElseThrow();
        out.put("HOME", runDirectory().toString());
        out.put("USER", u.name());
        out.put("LOGNAME", u.name());
        return out;
    }

    /** One line for the agent's log at start. */
    public String describe() {
        return switch (kind) {
            case USER ->
                "workloads run as user " + user.orElseThrow().name() + " (uid "
                        + user.orElseThrow().uid() + ")"
                        + (namespaces ? " in their own PID and mount namespaces, hiding " + hidden : "")
                        + ", in " + runDirectory();
            case NAMESPACE ->
                "workloads run in their own user, PID and mount namespaces, hiding " + hidden + ", in "
                        + runDirectory();
            case NONE -> "workloads are not isolated: " + reason + "; command jobs are refused";
            case OFF -> "workload isolation is switched off: workloads run as the agent and can read its secrets";
        };
    }
}
