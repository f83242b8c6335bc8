package dev.podium.agent.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The PyTorch fine-tuning workload the agent ships (podium_reference.py), extracted next to the journal at run time, and
 * the command line that runs it for one point of a job's matrix.
 */
public final class ReferenceWorkload {

    public static final String RESOURCE = "podium_reference.py";
    public static final String MODEL_PREFIX = "podium-tiny-vl-";
    /**
     * Parameters the script understands; any other parameter in a reference job is an error. The interpreter is not one:
     * the agent's configuration chooses it, since a job choosing it could run any program.
     */
    public static final Set<String> PARAMETERS = Set.of("size", "batch_size", "dataloader_num_workers", "precision", "steps",
            "seed", "device", "threads");

    private ReferenceWorkload() {
    }

    /** Writes the script to {@code dir} (replacing an older copy) and returns its path. */
    public static Path extract(Path dir) {
        try (InputStream in = ReferenceWorkload.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the agent jar");
            }
            Files.createDirectories(dir);
            Path target = dir.resolve(RESOURCE);
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the reference workload to " + dir, e);
        }
    }

    public static List<String> command(String python, Path script, Map<String, String> p, int warmupSteps) {
        List<String> cmd = new ArrayList<>(List.of(python, "-u", script.toString()));
        add(cmd, "--size", p.getOrDefault("size", "tiny"));
        add(cmd, "--batch-size", p.getOrDefault("batch_size", "8"));
        add(cmd, "--dataloader-num-workers", p.getOrDefault("dataloader_num_workers", "0"));
        add(cmd, "--precision", p.getOrDefault("precision", "fp32"));
        add(cmd, "--steps", p.getOrDefault("steps", "20"));
        add(cmd, "--warmup-steps", Integer.toString(warmupSteps));
        add(cmd, "--seed", p.getOrDefault("seed", "42"));
        add(cmd, "--device", p.getOrDefault("device", "auto"));
        if (p.containsKey("threads")) {
            add(cmd, "--threads", p.get("threads"));
        }
        return cmd;
    }

    /** The crop size the script trains on for a size, used as the comparison key's input size. */
    public static Integer inputSize(String size) {
        return switch (size == null ? "tiny" : size) {
            case "small", "base" -> 224;
            default -> 64;
        };
    }

    private static void add(List<String> cmd, String flag, String value) {
        cmd.add(flag);
        cmd.add(value);
    }
}
