package dev.podium.agent.workload;

import static dev.podium.agent.workload.ShippedWorkload.add;
import static dev.podium.agent.workload.ShippedWorkload.positive;

import dev.podium.agent.job.JobDefinition;
import dev.podium.agent.job.JobSpecException;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.WorkPerUnit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The shipped measured-achievable-matmul workload (podium_mamf.py): a matmul shape sweep at one precision on each of the
 * host's accelerators in turn, reporting the best sustained rate per accelerator, warm-up iterations excluded. The
 * results are ordinary results of the host and device, and the denominator of the share-of-measured-matmul columns.
 */
public record Matmul() implements Adapter {

    public static final String NAME = "mamf";
    public static final String METRIC = WorkPerUnit.MATMUL_METRIC;
    public static final Set<String> PARAMETERS = Set.of("precision", "device", "threads", "iterations", "max_seconds");
    private static final Set<String> PRECISIONS = Set.of("fp32", "tf32", "bf16", "fp16");
    /** The sweep occupies every accelerator of the host; the runner caps this at the host's count. */
    private static final int ALL_ON_HOST = 1024;

    @Override
    public void check(Map<String, String> point) {
        ShippedWorkload.checkKnown(point, PARAMETERS, NAME);
        String precision = point.getOrDefault("precision", "fp32");
        if (!PRECISIONS.contains(precision)) {
            throw new JobSpecException(
                    "parameters.precision", "must be one of " + PRECISIONS + ", was '" + precision + "'");
        }
        positive(point, "iterations", 10);
        positive(point, "max_seconds", 60);
    }

    @Override
    public List<String> command(String python, Path scripts, Map<String, String> p, int warmupSteps) {
        List<String> cmd = new ArrayList<>(
                List.of(python, "-u", scripts.resolve("podium_mamf.py").toString()));
        add(cmd, "--precision", p.getOrDefault("precision", "fp32"));
        add(cmd, "--device", p.getOrDefault("device", "auto"));
        add(cmd, "--warmup-iterations", Integer.toString(warmupSteps));
        for (String name : List.of("threads", "iterations", "max_seconds")) {
            if (p.containsKey(name)) {
                add(cmd, "--" + name.replace('_', '-'), p.get(name));
            }
        }
        return cmd;
    }

    /** One accelerator in the key: the rate is each accelerator's own, whatever the host holds. */
    @Override
    public KeyDefaults defaults(JobDefinition job, Map<String, String> point) {
        return new KeyDefaults("matmul-sweep", "microbenchmark", "synthetic", "fp32", 1, null);
    }

    @Override
    public boolean cpuOnly(Map<String, String> point, boolean hostHasAccelerators) {
        return ShippedWorkload.onCpu(point, hostHasAccelerators);
    }

    @Override
    public int devicesPerNode(JobSpec spec, Map<String, String> point) {
        return ALL_ON_HOST;
    }

    /** Shape lines are not steps of a fixed count. */
    @Override
    public long totalSteps(JobSpec spec, Map<String, String> point) {
        return 0;
    }

    @Override
    public Optional<String> requiredMetric(Map<String, String> point) {
        return Optional.of(METRIC);
    }
}
