package dev.podium.agent.workload;

import dev.podium.agent.job.JobSpecException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Python scripts the agent ships, extracted next to the journal at run time, and what the shipped adapters share:
 * a closed set of parameters, and exit code {@value #NO_SUCH_PATH} for a combination this host cannot run at all.
 */
public final class ShippedWorkload {

    /** The scripts, all extracted together because the workloads import the common module. */
    public static final List<String> SCRIPTS = List.of(
            "podium_common.py", "podium_reference.py", "podium_inference.py", "podium_mamf.py", "podium_torchrun.py");
    /** A workload's exit code for "this device or library has no such path": nothing was measured. */
    public static final int NO_SUCH_PATH = 5;

    private ShippedWorkload() {}

    /** Writes the scripts to {@code dir} (replacing older copies) and returns the directory. */
    public static Path extract(Path dir) {
        try {
            Files.createDirectories(dir);
            for (String name : SCRIPTS) {
                try (InputStream in = ShippedWorkload.class.getResourceAsStream(name)) {
                    if (in == null) {
                        throw new IllegalStateException(name + " is missing from the agent jar");
                    }
                    Files.copy(in, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the shipped workloads to " + dir, e);
        }
    }

    static void checkKnown(Map<String, String> point, Set<String> known, String workload) {
        if (point.containsKey("python")) {
            throw new JobSpecException(
                    "parameters.python",
                    "a job cannot choose the " + workload + " workload's"
                            + " interpreter; the agent's --python or $PODIUM_PYTHON does");
        }
        for (String p : point.keySet()) {
            if (!known.contains(p)) {
                throw new JobSpecException(
                        "parameters." + p, "unknown to the " + workload + " workload; known: " + new TreeSet<>(known));
            }
        }
    }

    static void add(List<String> cmd, String flag, String value) {
        cmd.add(flag);
        cmd.add(value);
    }

    static Integer positive(Map<String, String> point, String name, int dflt) {
        String v = point.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new JobSpecException("parameters." + name, "must be a whole number of 1 or more, was '" + v + "'");
        }
    }

    static boolean onCpu(Map<String, String> point, boolean hostHasAccelerators) {
        String device = point.getOrDefault("device", "auto");
        return "cpu".equals(device) || ("auto".equals(device) && !hostHasAccelerators);
    }
}
