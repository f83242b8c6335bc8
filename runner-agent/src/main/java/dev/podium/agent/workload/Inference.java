package dev.podium.agent.workload;

import static dev.podium.agent.workload.ShippedWorkload.add;
import static dev.podium.agent.workload.ShippedWorkload.positive;

import dev.podium.agent.job.JobDefinition;
import dev.podium.agent.job.JobSpecException;
import dev.podium.agent.parse.ParseResult;
import dev.podium.events.model.JobSpec;
import dev.podium.events.model.Software;
import dev.podium.events.validate.ValueChecks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The shipped inference workload (podium_inference.py): image generation (seconds per image at S denoising steps), text
 * generation (tokens per second, time to first token, time per output token) and classification, each eager or
 * compiled. Requests take the place of steps: warm-up requests are run and not measured.
 */
public record Inference() implements Adapter {

    public static final String NAME = "inference";
    public static final String MODEL_PREFIX = "podium-tiny-";
    public static final Set<String> PARAMETERS = Set.of(
            "task",
            "compiler",
            "batch_size",
            "image_size",
            "denoise_steps",
            "input_len",
            "output_len",
            "requests",
            "precision",
            "seed",
            "device",
            "threads");
    private static final Map<String, String> PRIMARY = Map.of(
            "image",
            "seconds_per_image",
            "text",
            "output_tokens_per_second",
            "classify",
            "inference_samples_per_second");
    public static final String TORCH_COMPILE = "torch.compile";
    public static final String TORCHSCRIPT = "torchscript-freeze";
    private static final Set<String> COMPILERS = Set.of("eager", "compiled");
    /** The workload's own cap (MAX_MEASURED_REQUESTS): a line of this many latencies fits the parser's 16 KiB. */
    private static final int MAX_REQUESTS = 1500;

    private static final String MIN_SECONDS = Double.toString(ValueChecks.MIN_REPETITION_SECONDS);

    @Override
    public void check(Map<String, String> point) {
        ShippedWorkload.checkKnown(point, PARAMETERS, "inference");
        String task = point.get("task");
        if (task == null || !PRIMARY.containsKey(task)) {
            throw new JobSpecException(
                    "parameters.task", "must be one of " + PRIMARY.keySet() + ", was '" + task + "'");
        }
        String compiler = point.getOrDefault("compiler", "eager");
        if (!COMPILERS.contains(compiler)) {
            throw new JobSpecException("parameters.compiler", "must be 'eager' or 'compiled', was '" + compiler + "'");
        }
        for (String n : List.of("batch_size", "image_size", "denoise_steps", "input_len", "output_len", "requests")) {
            positive(point, n, 1);
        }
        if (positive(point, "requests", 1) > MAX_REQUESTS) {
            throw new JobSpecException("parameters.requests", "must be " + MAX_REQUESTS + " or fewer");
        }
    }

    @Override
    public List<String> command(String python, Path scripts, Map<String, String> p, int warmupSteps) {
        List<String> cmd = new ArrayList<>(
                List.of(python, "-u", scripts.resolve("podium_inference.py").toString()));
        add(cmd, "--task", p.get("task"));
        add(cmd, "--compiler", p.getOrDefault("compiler", "eager"));
        add(cmd, "--warmup-requests", Integer.toString(warmupSteps));
        // Requests of a tiny model on a fast device end before a repetition is long enough to count.
        add(cmd, "--min-seconds", MIN_SECONDS);
        for (String name : List.of(
                "batch_size",
                "image_size",
                "denoise_steps",
                "input_len",
                "output_len",
                "requests",
                "precision",
                "seed",
                "device",
                "threads")) {
            if (p.containsKey(name)) {
                add(cmd, "--" + name.replace('_', '-'), p.get(name));
            }
        }
        return cmd;
    }

    /**
     * "compiled" becomes the compiler the installed PyTorch has: torch.compile from 2.0, TorchScript with freezing
     * before, so that the key and the page name what ran.
     */
    @Override
    public Map<String, String> keyed(Map<String, String> point, Software software) {
        if (!"compiled".equals(point.get("compiler"))) {
            return point;
        }
        Map<String, String> keyed = new LinkedHashMap<>(point);
        keyed.put("compiler", compilerFor(software == null ? null : software.frameworkVersion()));
        return keyed;
    }

    @Override
    public Optional<String> contradiction(Map<String, String> keyed, ParseResult parsed) {
        String expected = keyed.getOrDefault("compiler", "eager");
        String ran = parsed.info().get("compiler");
        return ran != null && ran.startsWith(expected)
                ? Optional.empty()
                : Optional.of("the workload reports compiler '" + ran + "' where '" + expected + "' was expected");
    }

    static String compilerFor(String torchVersion) {
        if (torchVersion == null) {
            return TORCHSCRIPT;
        }
        try {
            return Integer.parseInt(torchVersion.split("[.+]")[0]) >= 2 ? TORCH_COMPILE : TORCHSCRIPT;
        } catch (NumberFormatException e) {
            return TORCHSCRIPT;
        }
    }

    @Override
    public KeyDefaults defaults(JobDefinition job, Map<String, String> point) {
        String task = point.get("task");
        Integer inputSize = "text".equals(task) ? null : positive(point, "image_size", 64);
        return new KeyDefaults(MODEL_PREFIX + task, "inference", "synthetic", "fp32", 1, inputSize);
    }

    @Override
    public boolean cpuOnly(Map<String, String> point, boolean hostHasAccelerators) {
        return ShippedWorkload.onCpu(point, hostHasAccelerators);
    }

    @Override
    public int devicesPerNode(JobSpec spec, Map<String, String> point) {
        return 1;
    }

    @Override
    public long totalSteps(JobSpec spec, Map<String, String> point) {
        return positive(point, "requests", 8) + spec.warmupSteps();
    }

    @Override
    public Optional<String> requiredMetric(Map<String, String> point) {
        return Optional.of(PRIMARY.get(point.get("task")));
    }
}
