package dev.podium.agent.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.model.Software;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Asks the Python interpreter the workloads use which framework and libraries it has. */
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

    private final String python;
    private final ToolRunner tools;
    private Software cached;

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

    public synchronized Software software() {
        if (cached == null) {
            cached = tools.run(List.of(python, "-c", SCRIPT), 60)
                    .flatMap(PythonProbe::parse)
                    .orElse(null);
        }
        return cached;
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
