package dev.podium.events.published;

import dev.podium.events.model.ComparisonKey;
import dev.podium.events.model.JobSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a user's fleet reproduces a published ratio claim: not its absolute figures (a tiny local model is never ranked
 * against another model's), but its ratio, measured with a shipped workload that varies the claim's one dimension.
 * The command side turns a plan into a campaign; the claim's page shows the plan and, once runs land, the measured ratio.
 *
 * @param dimension   the key dimension the claim varies: a parameter ({@code dataloader_num_workers}, {@code dataloader},
 *                    {@code per_device_batch_size}, {@code total_accelerators}, {@code compiler}) or {@code device}
 * @param baseline    the dimension's value in the ratio's denominator (for {@code device}: the baseline's label)
 * @param compared    its value in the numerator (for {@code device}: the subject device's label)
 * @param parameter   the shipped workload's parameter that varies (null for {@code device}: the same point on two pools)
 * @param spec        the job spec of the campaign, one matrix point per value of {@code parameter}
 * @param metric      the metric the ratio is computed on
 */
public record Reproduction(
        String source,
        String claimId,
        String dimension,
        String baseline,
        String compared,
        String parameter,
        String baselineParameterValue,
        String comparedParameterValue,
        JobSpec spec,
        String metric) {

    public static final String DEVICE = "device";
    public static final String TRAINING = "podium-reference";
    public static final String INFERENCE = "podium-inference";

    /** The training workload's parameter for the number of accelerators (processes) a run uses. */
    public static final String NPROC = "nproc";

    /** The dimensions a shipped workload can vary, and its parameter for each. */
    private static final Map<String, String> PARAMETERS = Map.of(
            "dataloader_num_workers",
            "dataloader_num_workers",
            "dataloader",
            "dataloader",
            ComparisonKey.BATCH_SIZE,
            "batch_size",
            ComparisonKey.TOTAL_ACCELERATORS,
            NPROC,
            "compiler",
            "compiler");

    /** Whether the two pools of a cross-device plan must be given: the subject's first, then the baseline's. */
    public boolean crossDevice() {
        return DEVICE.equals(dimension);
    }

    /** The metric of a shipped workload's result that stands for a claim's metric. */
    public static String metricFor(String spec) {
        return INFERENCE.equals(spec) ? "inference_samples_per_second" : "train_samples_per_second";
    }

    /**
     * This plan measured at {@code devices} accelerators a run instead of the claim's own number, for a pool too small to
     * run the claim's configuration; the ratio it measures is then not the claim's configuration, which the claim's page
     * says. Refused when the claim's ratio is itself about the number of accelerators, or the workload is the inference
     * one, which runs on one accelerator whatever the claim's number.
     */
    public Result atDevices(int devices) {
        if (NPROC.equals(parameter)) {
            return Result.no("the claim varies the number of accelerators itself (" + baseline + " to " + compared
                    + "); it cannot be measured at a fixed number");
        }
        if (INFERENCE.equals(spec.benchmark())) {
            return Result.no("the claim is reproduced with the inference workload, which runs on one accelerator; "
                    + "there is no number of accelerators to choose");
        }
        return Result.of(new Reproduction(
                source,
                claimId,
                dimension,
                baseline,
                compared,
                parameter,
                baselineParameterValue,
                comparedParameterValue,
                spec.withParameter(NPROC, Integer.toString(devices)),
                metric));
    }

    /**
     * The plan for a ratio claim, given the figures it names (null where it names none), or why there is none.
     */
    public static Result plan(PublishedClaim claim, PublishedClaim numerator, PublishedClaim denominator) {
        if (!claim.isRatio()) {
            return Result.no("only a ratio claim can be reproduced on another fleet; a figure is an absolute value of "
                    + "another system");
        }
        String baselineLabel = claim.ratio().baselineLabel();
        if (numerator != null && denominator != null) {
            if (!Objects.equals(numerator.deviceId(), denominator.deviceId())) {
                return Result.of(
                        crossDevice(claim, numerator.deviceLabel(), denominator.deviceLabel(), numerator.key()));
            }
            return varied(claim, numerator.key(), denominator.key());
        }
        String baseline = baselineLabel.toLowerCase(Locale.ROOT);
        if (baseline.contains("eager")) {
            return Result.of(build(
                    claim,
                    "compiler",
                    "eager",
                    "compiled",
                    "compiler",
                    "eager",
                    "compiled",
                    INFERENCE,
                    Map.of("task", "classify")));
        }
        if (claim.deviceLabel() != null) {
            return Result.of(crossDevice(claim, claim.deviceLabel(), baselineLabel, claim.key()));
        }
        return Result.no("the claim names no figures and no baseline that a shipped workload can vary");
    }

    private static Reproduction crossDevice(PublishedClaim claim, String subject, String baseline, ComparisonKey key) {
        Map<String, String> fixed = new LinkedHashMap<>();
        if (key != null && key.extra() != null) {
            key.extra().forEach((k, v) -> {
                String p = PARAMETERS.get(k);
                if (p != null && v != null && shippedValue(k, v) != null) {
                    fixed.put(p, shippedValue(k, v));
                }
            });
        }
        String workload =
                key != null && key.benchmark() != null && key.benchmark().contains("inference") ? INFERENCE : TRAINING;
        if (INFERENCE.equals(workload)) {
            fixed.putIfAbsent("task", "classify");
        }
        return build(claim, DEVICE, baseline, subject, null, null, null, workload, fixed);
    }

    private static Result varied(PublishedClaim claim, ComparisonKey numerator, ComparisonKey denominator) {
        Map<String, String> a = numerator == null ? Map.of() : numerator.dimensions();
        Map<String, String> b = denominator == null ? Map.of() : denominator.dimensions();
        Set<String> names = new TreeSet<>(a.keySet());
        names.addAll(b.keySet());
        List<String> differing =
                names.stream().filter(n -> !Objects.equals(a.get(n), b.get(n))).toList();
        if (differing.size() != 1) {
            return Result.no("its figures differ in " + differing + ", not in one dimension a shipped workload varies");
        }
        String dimension = differing.get(0);
        String parameter = PARAMETERS.get(dimension);
        String from = shippedValue(dimension, b.get(dimension));
        String to = shippedValue(dimension, a.get(dimension));
        if (parameter == null || from == null || to == null) {
            return Result.no("no shipped workload varies " + dimension + " from " + b.get(dimension) + " to "
                    + a.get(dimension));
        }
        Map<String, String> fixed = new LinkedHashMap<>();
        a.forEach((k, v) -> {
            String p = PARAMETERS.get(k);
            if (!k.equals(dimension) && p != null && v != null && shippedValue(k, v) != null) {
                fixed.put(p, shippedValue(k, v));
            }
        });
        return Result.of(
                build(claim, dimension, b.get(dimension), a.get(dimension), parameter, from, to, TRAINING, fixed));
    }

    /** A published value as the shipped workload's parameter takes it: mediapipe is the device-side pipeline. */
    private static String shippedValue(String dimension, String value) {
        if (value == null) {
            return null;
        }
        if (dimension.equals("dataloader")) {
            return switch (value) {
                case "mediapipe", "device" -> "device";
                case "default", "cpu" -> "cpu";
                default -> null;
            };
        }
        return value.matches("[A-Za-z0-9._-]{1,64}") ? value : null;
    }

    private static Reproduction build(
            PublishedClaim claim,
            String dimension,
            String baseline,
            String compared,
            String parameter,
            String from,
            String to,
            String workload,
            Map<String, String> fixed) {
        Map<String, String> parameters = new LinkedHashMap<>(fixed);
        boolean inference = INFERENCE.equals(workload);
        if (!inference) {
            parameters.putIfAbsent("size", "tiny");
            parameters.putIfAbsent("steps", "20");
        } else {
            parameters.putIfAbsent("requests", "12");
        }
        parameters.putIfAbsent("device", "auto");
        Map<String, List<String>> matrix = new LinkedHashMap<>();
        if (parameter != null) {
            parameters.remove(parameter);
            matrix.put(parameter, List.of(from, to));
        }
        JobSpec spec = new JobSpec(
                workload,
                inference ? "inference" : "reference",
                null,
                "jsonl",
                parameters,
                matrix,
                3,
                inference ? 3 : 2,
                1800,
                Map.of(),
                1,
                1,
                null);
        return new Reproduction(
                claim.source(),
                claim.claimId(),
                dimension,
                baseline,
                compared,
                parameter,
                from,
                to,
                spec,
                metricFor(workload));
    }

    /** A plan, or the reason there is none. */
    public record Result(Optional<Reproduction> plan, String reason) {
        static Result of(Reproduction r) {
            return new Result(Optional.of(r), null);
        }

        static Result no(String reason) {
            return new Result(Optional.empty(), reason);
        }
    }
}
