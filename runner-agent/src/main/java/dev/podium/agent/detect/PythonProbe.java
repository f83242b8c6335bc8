package dev.podium.agent.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.model.Software;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Asks the Python interpreter the workloads use which framework and libraries it has. The answer is kept for the
 * agent process's life, per interpreter, until the interpreter's file changes: importing torch takes seconds, and a
 * daemon would otherwise pay them for each job between its grant and its RunStarted.
 */
public final class PythonProbe {

    private static final String SCRIPT = String.join(
            "\n",
            "import json, platform, importlib",
            "out = {'python': platform.python_version(), 'libraries': {}}",
            "for name in ('torch', 'torchvision', 'transformers', 'accelerate', 'optimum', 'numpy', 'PIL',"
                    + " 'habana_frameworks.torch', 'torch_xla', 'jax'):",
            "    try:",
            "        m = importlib.import_module(name)",
            "        v = getattr(m, '__version__', None)",
            "        if v: out['libraries'][name] = str(v)",
            "    except Exception:",
            "        pass",
            "try:",
            "    import torch",
            "    if getattr(torch.version, 'cuda', None): out['libraries']['cuda'] = torch.version.cuda",
            "    if getattr(torch.version, 'hip', None): out['libraries']['hip'] = torch.version.hip",
            "except Exception:",
            "    pass",
            "print(json.dumps(out))");

    private static final ConcurrentMap<String, Probed> PROBED = new ConcurrentHashMap<>();

    private final String python;
    private final ToolRunner tools;

    /** A probe's answer (empty when it failed) and the interpreter file's modification time it was asked at. */
    private record Probed(Optional<FileTime> modified, Optional<Software> software) {}

    public PythonProbe(String python, ToolRunner tools) {
        this.python = python;
        this.tools = tools;
    }

    /** The default interpreter: {@code PODIUM_PYTHON}, else Debian's /usr/bin/python3 (which has python3-torch), else python3. */
    public static String defaultPython() {
        String env = System.getenv("PODIUM_PYTHON");
        if (env != null && !env.isBlank()) {
            return env;
        }
        return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    }

    /** The interpreter's software, probed again only when its file changed since the last probe; null if it fails. */
    public Software software() {
        Optional<FileTime> modified = modified();
        return PROBED.compute(
                        python,
                        (p, seen) -> seen != null && seen.modified().equals(modified)
                                ? seen
                                : new Probed(
                                        modified,
                                        tools.run(List.of(python, "-c", SCRIPT), 60)
                                                .flatMap(PythonProbe::parse)))
                .software()
                .orElse(null);
    }

    /** The modification time of the interpreter's file (a symbolic link's target), found on PATH for a bare name. */
    private Optional<FileTime> modified() {
        List<Path> candidates = python.contains("/")
                ? List.of(Path.of(python))
                : Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                        .filter(dir -> !dir.isEmpty())
                        .map(dir -> Path.of(dir, python))
                        .toList();
        for (Path candidate : candidates) {
            try {
                if (Files.isExecutable(candidate)) {
                    return Optional.of(Files.getLastModifiedTime(candidate));
                }
            } catch (IOException e) {
                // gone between the two calls: try the next one
            }
        }
        return Optional.empty();
    }

    static Optional<Software> parse(String json) {
        try {
            JsonNode n = new ObjectMapper()
                    .readTree(json.strip().lines().reduce((a, b) -> b).orElse("{}"));
            Map<String, String> libs = new TreeMap<>();
            n.path("libraries")
                    .fields()
                    .forEachRemaining(e -> libs.put(e.getKey(), e.getValue().asText()));
            String torch = libs.get("torch");
            return Optional.of(new Software(
                    torch == null ? null : "PyTorch", torch, n.path("python").asText(null), libs, null, null));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
