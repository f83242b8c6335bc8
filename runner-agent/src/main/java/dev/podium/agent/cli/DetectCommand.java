package dev.podium.agent.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import dev.podium.agent.detect.Fingerprint;
import dev.podium.agent.detect.HostDetector;
import dev.podium.agent.detect.PythonProbe;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.events.codec.EventCodec;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.Host;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "detect",
        mixinStandardHelpOptions = true,
        description =
                "Print this host's fingerprint: CPU, memory, OS, accelerators (nvidia-smi, amd-smi/rocm-smi, hl-smi, TPU) "
                        + "and the Python stack.")
public final class DetectCommand implements Callable<Integer> {

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Option(
            names = "--python",
            paramLabel = "PATH",
            description = "Interpreter to probe (default: $PODIUM_PYTHON, /usr/bin/python3).")
    String python;

    @Option(names = "--no-probe", description = "Skip the Python probe (faster).")
    boolean noProbe;

    @Override
    public Integer call() throws Exception {
        ToolRunner tools = new ToolRunner();
        Fingerprint fp = new HostDetector(tools)
                .detect(noProbe ? null : new PythonProbe(python != null ? python : PythonProbe.defaultPython(), tools));
        if (json) {
            System.out.println(json(fp));
            return 0;
        }
        Host h = fp.host();
        row("hostname", h.hostname());
        row(
                "cpu",
                h.cpuModel()
                        + String.format(
                                Locale.ROOT,
                                " (%d sockets, %d cores, %d threads)",
                                h.sockets(),
                                h.cores(),
                                h.threads()));
        row("memory", gib(h.memoryBytes()));
        row("os", h.os());
        row("kernel", h.kernel());
        if (fp.accelerators().isEmpty()) {
            row(
                    "accelerators",
                    "none found (CPU runs use device id "
                            + HostDetector.cpuAsAccelerator(h).deviceId() + ")");
        }
        for (Accelerator a : fp.accelerators()) {
            row(
                    "accelerator",
                    a.countPerNode() + " x " + a.model() + " [" + a.deviceId() + "] " + gib(a.memoryBytes()));
            row("  driver", a.driver() == null ? "-" : a.driver());
            row("  runtime", a.runtime() == null ? "-" : a.runtime());
        }
        if (fp.software() != null) {
            row("python", fp.software().pythonVersion());
            if (fp.software().libraries() != null) {
                fp.software().libraries().forEach((k, v) -> row("  " + k, v));
            }
        } else if (!noProbe) {
            row("python", "not found or not working");
        }
        return 0;
    }

    /** The fingerprint as {@code detect --json} prints it: the events mapper, so host and accelerators bind to the records. */
    static String json(Fingerprint fp) throws com.fasterxml.jackson.core.JsonProcessingException {
        return EventCodec.newMapper()
                .copy()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .writeValueAsString(fp);
    }

    private static void row(String k, String v) {
        System.out.printf(Locale.ROOT, "%-14s %s%n", k, v);
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    }
}
