package dev.podium.agent.workload;

import static dev.podium.agent.workload.ShippedWorkload.add;
import static dev.podium.agent.workload.ShippedWorkload.positive;

import dev.podium.agent.job.JobDefinition;
import dev.podium.agent.job.JobSpecException;
import dev.podium.events.model.JobSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The shipped fine-tuning workload (podium_reference.py): dataloader workers, the data pipeline on the CPU or the device,
 * {@code nproc} processes through torchrun and DistributedDataParallel, and the largest-batch sweep.
 */
public record ReferenceTraining() implements Adapter {

    public static final String NAME = "reference";
    public static final String MODEL_PREFIX = "podium-tiny-vl-";
    public static final String THROUGHPUT = "train_samples_per_second";
    /**
     * Parameters the script understands; any other parameter in a reference job is an error. The interpreter is not one:
     * the agent's configuration chooses it, since a job choosing it could run any program.
     */
    public static final Set<String> PARAMETERS = Set.of(
            "size",
            "batch_size",
            "dataloader_num_workers",
            "dataloader",
            "precision",
            "steps",
            "seed",
            "device",
            "threads",
            "nproc",
            "find_max_batch",
            "max_batch",
            "memory_limit_mb");

    private static final Set<String> PIPELINES = Set.of("cpu", "device");

    @Override
    public void check(Map<String, String> point) {
        ShippedWorkload.checkKnown(point, PARAMETERS, "reference");
        String pipeline = point.getOrDefault("dataloader", "cpu");
        if (!PIPELINES.contains(pipeline)) {
            throw new JobSpecException("parameters.dataloader", "must be 'cpu' or 'device', was '" + pipeline + "'");
        }
        positive(point, "nproc", 1);
    }

    @Override
    public List<String> command(String python, Path scripts, Map<String, String> p, int warmupSteps) {
        int nproc = positive(p, "nproc", 1);
        List<String> cmd = new ArrayList<>(List.of(python, "-u"));
        if (nproc > 1) {
            cmd.addAll(List.of(
                    scripts.resolve("podium_torchrun.py").toString(),
                    "--standalone",
                    "--nproc_per_node",
                    Integer.toString(nproc)));
        }
        cmd.add(scripts.resolve("podium_reference.py").toString());
        add(cmd, "--size", p.getOrDefault("size", "tiny"));
        add(cmd, "--batch-size", p.getOrDefault("batch_size", "8"));
        add(cmd, "--dataloader-num-workers", p.getOrDefault("dataloader_num_workers", "0"));
        add(cmd, "--dataloader", p.getOrDefault("dataloader", "cpu"));
        add(cmd, "--precision", p.getOrDefault("precision", "fp32"));
        add(cmd, "--steps", p.getOrDefault("steps", "20"));
        add(cmd, "--warmup-steps", Integer.toString(warmupSteps));
        add(cmd, "--seed", p.getOrDefault("seed", "42"));
        add(cmd, "--device", p.getOrDefault("device", "auto"));
        for (String name : List.of("threads", "max_batch", "memory_limit_mb")) {
            if (p.containsKey(name)) {
                add(cmd, "--" + name.replace('_', '-'), p.get(name));
            }
        }
        if (Boolean.parseBoolean(p.getOrDefault("find_max_batch", "false"))) {
            cmd.add("--find-max-batch");
        }
        return cmd;
    }

    @Override
    public KeyDefaults defaults(JobDefinition job, Map<String, String> point) {
        String size = point.getOrDefault("size", "tiny");
        return new KeyDefaults(
                MODEL_PREFIX + size,
                "training",
                "synthetic-image-text",
                "fp32",
                positive(point, "nproc", 1),
                inputSize(size));
    }

    @Override
    public boolean cpuOnly(Map<String, String> point, boolean hostHasAccelerators) {
        return ShippedWorkload.onCpu(point, hostHasAccelerators);
    }

    /** One accelerator per process; a CPU run's processes share the one CPU "accelerator". */
    @Override
    public int devicesPerNode(JobSpec spec, Map<String, String> point) {
        return positive(point, "nproc", 1);
    }

    @Override
    public long totalSteps(JobSpec spec, Map<String, String> point) {
        if (Boolean.parseBoolean(point.getOrDefault("find_max_batch", "false"))) {
            return 0; // a sweep prints no step lines
        }
        return positive(point, "steps", 20) + spec.warmupSteps();
    }

    @Override
    public Optional<String> requiredMetric(Map<String, String> point) {
        return Optional.of(
                Boolean.parseBoolean(point.getOrDefault("find_max_batch", "false")) ? "max_batch_size" : THROUGHPUT);
    }

    /** The crop size the script trains on for a size, used as the comparison key's input size. */
    public static Integer inputSize(String size) {
        return switch (size == null ? "tiny" : size) {
            case "small", "base" -> 224;
            default -> 64;
        };
    }
}
