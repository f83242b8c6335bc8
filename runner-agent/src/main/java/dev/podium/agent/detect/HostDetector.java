package dev.podium.agent.detect;

import dev.podium.events.device.DeviceAliases;
import dev.podium.events.model.Accelerator;
import dev.podium.events.model.Host;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Builds the host fingerprint from /proc, /etc and the vendor tools that are installed. */
public final class HostDetector {

    private final ToolRunner tools;
    private final Path root;

    public HostDetector(ToolRunner tools) {
        this(tools, Path.of("/"));
    }

    /** {@code root} lets tests read recorded /proc and /etc files. */
    public HostDetector(ToolRunner tools, Path root) {
        this.tools = tools;
        this.root = root;
    }

    public Fingerprint detect(PythonProbe probe) {
        List<String> found = new ArrayList<>();
        List<DetectedDevice> devices = new ArrayList<>();
        add(found, devices, "nvidia-smi", NvidiaSmi.detect(tools));
        add(found, devices, "amd-smi/rocm-smi", withRocmRuntime(AmdSmi.detect(tools)));
        add(found, devices, "hl-smi", HlSmi.detect(tools));
        add(found, devices, "tpu", tpu());
        return new Fingerprint(host(), group(devices), probe == null ? null : probe.software(), found);
    }

    private static void add(List<String> found, List<DetectedDevice> all, String tool, List<DetectedDevice> devices) {
        if (!devices.isEmpty()) {
            found.add(tool);
            all.addAll(devices);
        }
    }

    public Host host() {
        CpuInfo cpu = CpuInfo.parse(read("proc/cpuinfo").orElse(""));
        long mem = read("proc/meminfo").map(HostDetector::memTotal).orElse(0L);
        String os = read("etc/os-release")
                .map(HostDetector::prettyName)
                .orElse(System.getProperty("os.name") + " " + System.getProperty("os.version"));
        String kernel = read("proc/sys/kernel/osrelease").map(String::strip).orElse(System.getProperty("os.version"));
        String machineId = read("etc/machine-id")
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .orElse(null);
        int threads = cpu.threads() > 0 ? cpu.threads() : Runtime.getRuntime().availableProcessors();
        return new Host(
                hostname(),
                machineId,
                cpu.model() == null ? System.getProperty("os.arch") : cpu.model(),
                Math.max(cpu.sockets(), 1),
                Math.max(cpu.cores(), 1),
                threads,
                mem,
                os,
                kernel,
                1);
    }

    /** Devices of the same model become one {@link Accelerator} with their count; ids come from the alias table. */
    public static List<Accelerator> group(List<DetectedDevice> devices) {
        Map<String, List<DetectedDevice>> byModel = new LinkedHashMap<>();
        for (DetectedDevice d : devices) {
            byModel.computeIfAbsent(d.vendor() + "\u0000" + d.model(), k -> new ArrayList<>())
                    .add(d);
        }
        List<Accelerator> out = new ArrayList<>();
        for (List<DetectedDevice> same : byModel.values()) {
            DetectedDevice d = same.get(0);
            String id = DeviceAliases.resolve(d.model())
                    .map(m -> m.id())
                    .orElse(d.vendor().toLowerCase(Locale.ROOT) + "-" + slug(d.model()));
            out.add(new Accelerator(
                    d.vendor(),
                    d.model(),
                    id,
                    d.memoryBytes(),
                    same.size(),
                    same.size(),
                    null,
                    d.driver(),
                    d.firmware(),
                    d.runtime()));
        }
        return out;
    }

    /** The pseudo-accelerator of a run that used only the CPU, so every result names the device it ran on. */
    public static Accelerator cpuAsAccelerator(Host host) {
        String vendor = host.cpuModel().toLowerCase(Locale.ROOT).contains("amd")
                ? "AMD"
                : host.cpuModel().toLowerCase(Locale.ROOT).contains("intel") ? "Intel" : "CPU";
        return new Accelerator(
                vendor,
                host.cpuModel(),
                DeviceAliases.cpuDeviceId(host.cpuModel()),
                host.memoryBytes(),
                1,
                1,
                null,
                null,
                null,
                "CPU");
    }

    private List<DetectedDevice> withRocmRuntime(List<DetectedDevice> devices) {
        if (devices.isEmpty()) {
            return devices;
        }
        String runtime = read("opt/rocm/.info/version")
                .map(v -> "ROCm " + v.strip().replaceAll("-.*$", ""))
                .orElse(null);
        return devices.stream()
                .map(d -> new DetectedDevice(
                        d.vendor(), d.model(), d.memoryBytes(), d.driver(), d.firmware(), runtime, d.busId()))
                .toList();
    }

    /** Cloud TPU VMs say what they are in the environment; /dev/accel* are their chips. */
    private List<DetectedDevice> tpu() {
        String type = System.getenv("TPU_ACCELERATOR_TYPE");
        if (type == null || type.isBlank()) {
            return List.of();
        }
        int chips = 0;
        try (var s = Files.list(root.resolve("dev"))) {
            chips = (int) s.filter(p -> p.getFileName().toString().matches("accel[0-9]+"))
                    .count();
        } catch (IOException e) {
            // not a TPU VM layout
        }
        List<DetectedDevice> out = new ArrayList<>();
        for (int i = 0; i < Math.max(chips, 1); i++) {
            out.add(new DetectedDevice("Google", "TPU " + type, 0, null, null, null, null));
        }
        return out;
    }

    private Optional<String> read(String relative) {
        try {
            Path p = root.resolve(relative);
            return Files.isReadable(p) ? Optional.of(Files.readString(p)) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static long memTotal(String meminfo) {
        for (String line : meminfo.split("\n")) {
            if (line.startsWith("MemTotal:")) {
                String[] parts = line.substring(9).strip().split("\\s+");
                return Long.parseLong(parts[0]) * 1024;
            }
        }
        return 0;
    }

    static String prettyName(String osRelease) {
        for (String line : osRelease.split("\n")) {
            if (line.startsWith("PRETTY_NAME=")) {
                return line.substring(12).replace("\"", "").strip();
            }
        }
        return "Linux";
    }

    private static String hostname() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    static String slug(String s) {
        String slug = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return slug.isEmpty() ? "unknown" : slug;
    }

    /** The CPU as /proc/cpuinfo describes it. */
    public record CpuInfo(String model, int sockets, int cores, int threads) {
        public static CpuInfo parse(String cpuinfo) {
            String model = null;
            Set<String> sockets = new HashSet<>();
            Set<String> cores = new HashSet<>();
            int threads = 0;
            String physical = "0";
            for (String line : cpuinfo.split("\n")) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String key = line.substring(0, colon).strip();
                String value = line.substring(colon + 1).strip();
                switch (key) {
                    case "processor" -> threads++;
                    case "model name" -> model = model == null ? value : model;
                    case "physical id" -> {
                        physical = value;
                        sockets.add(value);
                    }
                    case "core id" -> cores.add(physical + "/" + value);
                    default -> {}
                }
            }
            return new CpuInfo(
                    model,
                    Math.max(sockets.size(), threads > 0 ? 1 : 0),
                    cores.isEmpty() ? threads : cores.size(),
                    threads);
        }
    }
}
