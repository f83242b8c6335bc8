package dev.podium.agent.workload;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The environment of a workload process, built from nothing: a few variables of the agent's own environment that
 * programs need to run at all ({@link #INHERITED}), then those of the job spec whose names are on the allowlist (the
 * built-in {@link #DISTRIBUTED} list and the names the agent's configuration adds). Nothing else of the agent's
 * environment reaches a workload, so its key ({@code PODIUM_KEY_SECRET}), its Kafka login and anything else it was
 * started with stay with the agent; and no name starting with {@code PODIUM_} is ever passed, whatever is configured.
 */
public final class ChildEnvironment {

    /** Taken from the agent's environment when set there; a job cannot set these. */
    public static final Set<String> INHERITED = Set.of(
            "PATH",
            "HOME",
            "USER",
            "LOGNAME",
            "LANG",
            "LC_ALL",
            "LC_CTYPE",
            "TZ",
            "TMPDIR",
            "LD_LIBRARY_PATH",
            "CUDA_HOME",
            "ROCM_PATH",
            "HABANA_LOGS",
            "GC_KERNEL_PATH");

    /** What a job may set without any configuration: the variables of distributed runs and device selection. */
    public static final Set<String> DISTRIBUTED = Set.of(
            "MASTER_ADDR",
            "MASTER_PORT",
            "WORLD_SIZE",
            "RANK",
            "LOCAL_RANK",
            "LOCAL_WORLD_SIZE",
            "NODE_RANK",
            "GROUP_RANK",
            "OMP_NUM_THREADS",
            "MKL_NUM_THREADS",
            "CUDA_VISIBLE_DEVICES",
            "HIP_VISIBLE_DEVICES",
            "ROCR_VISIBLE_DEVICES",
            "HABANA_VISIBLE_DEVICES",
            "HABANA_VISIBLE_MODULES",
            "NCCL_DEBUG",
            "NCCL_SOCKET_IFNAME",
            "NCCL_IB_DISABLE",
            "GLOO_SOCKET_IFNAME",
            "TORCH_DISTRIBUTED_DEBUG");

    private static final String RESERVED_PREFIX = "PODIUM_";

    private final Set<String> allowed;

    /** An allowlist of the built-in names plus {@code configured} (names starting with {@code PODIUM_} are ignored). */
    public ChildEnvironment(Collection<String> configured) {
        Set<String> names = new TreeSet<>(DISTRIBUTED);
        configured.stream()
                .filter(n -> !n.startsWith(RESERVED_PREFIX) && !INHERITED.contains(n))
                .forEach(names::add);
        this.allowed = Set.copyOf(names);
    }

    public Set<String> allowed() {
        return allowed;
    }

    /**
     * The complete environment of a workload: {@link #INHERITED} from {@code agent}, then the job's allowed variables;
     * each variable of the job left out is named to {@code dropped}.
     */
    public Map<String, String> build(Map<String, String> agent, Map<String, String> job, Consumer<String> dropped) {
        Map<String, String> out = new TreeMap<>();
        for (String name : INHERITED) {
            String v = agent.get(name);
            if (v != null) {
                out.put(name, v);
            }
        }
        job.forEach((name, value) -> {
            if (allowed.contains(name)) {
                out.put(name, value);
            } else {
                dropped.accept(name);
            }
        });
        return out;
    }
}
