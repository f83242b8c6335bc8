package dev.podium.agent.measure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.agent.detect.DeviceStates;
import dev.podium.agent.detect.DeviceStates.DeviceState;
import dev.podium.agent.detect.ToolRunner;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.Sample;
import dev.podium.events.model.SeriesKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples host CPU utilisation and memory from /proc, and accelerator utilisation, memory and power from nvidia-smi, hl-smi
 * or rocm-smi (the first of them that is installed), at a fixed interval while a run executes; with them each device's
 * clocks, temperature, enforced power limit, throttle reasons and ECC errors ({@link DeviceStates}), where the tool
 * reports them. Series are what make a data-loading bottleneck visible: a starved
 * accelerator shows low utilisation while the CPU is saturated.
 */
public final class Sampler implements AutoCloseable {

    public static final List<String> NVIDIA_QUERY = List.of(
            "nvidia-smi", "--query-gpu=index,utilization.gpu,memory.used,power.draw", "--format=csv,noheader,nounits");
    /** hl-smi takes the same CSV query form as nvidia-smi, with its own name for utilisation. */
    public static final List<String> GAUDI_QUERY =
            List.of("hl-smi", "-Q", "index,utilization.aip,memory.used,power.draw", "-f", "csv,noheader,nounits");

    /**
     * rocm-smi prints JSON keyed by card: "GPU use (%)", "VRAM Total Used Memory (B)" and a power field whose name changed
     * between releases ("Average Graphics Package Power (W)", "Current Socket Graphics Package Power (W)").
     */
    public static final List<String> ROCM_QUERY =
            List.of("rocm-smi", "--showuse", "--showmeminfo", "vram", "--showpower", "--json");

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The processes using NVIDIA GPUs, to tell whether another process shared the device during a run. */
    public static final List<String> NVIDIA_APPS =
            List.of("nvidia-smi", "--query-compute-apps=pid", "--format=csv,noheader");

    private final Set<Long> foreignProcesses = ConcurrentHashMap.newKeySet();

    private final Map<SeriesKind, List<Sample>> series = new EnumMap<>(SeriesKind.class);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "podium-sampler");
        t.setDaemon(true);
        return t;
    });
    private final long startNanos;
    private final ToolRunner tools;
    private final List<String> acceleratorQuery;
    private final boolean rocm;
    /** The device state query that answered last (the NVIDIA one has a form for drivers before 535), or null. */
    private List<String> stateQuery;

    private volatile Integer repetition;
    private long[] lastCpu;

    public Sampler(ToolRunner tools, long intervalMillis) {
        this.tools = tools;
        this.acceleratorQuery = tools.onPath("nvidia-smi")
                ? NVIDIA_QUERY
                : tools.onPath("hl-smi") ? GAUDI_QUERY : tools.onPath("rocm-smi") ? ROCM_QUERY : null;
        this.rocm = acceleratorQuery == ROCM_QUERY;
        this.startNanos = System.nanoTime();
        this.lastCpu = cpuTimes();
        timer.scheduleAtFixedRate(this::sample, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    public void repetition(Integer repetition) {
        this.repetition = repetition;
    }

    public double secondsSinceStart() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private void sample() {
        try {
            double t = secondsSinceStart();
            long[] cpu = cpuTimes();
            if (cpu != null && lastCpu != null) {
                long total = cpu[0] - lastCpu[0];
                long idle = cpu[1] - lastCpu[1];
                if (total > 0) {
                    add(
                            SeriesKind.CPU_UTILISATION,
                            new Sample(t, Math.max(0, 100.0 * (total - idle) / total), repetition, null));
                }
            }
            lastCpu = cpu;
            long used = memoryUsed();
            if (used > 0) {
                add(SeriesKind.HOST_MEMORY, new Sample(t, used, repetition, null));
            }
            if (acceleratorQuery == NVIDIA_QUERY) {
                tools.run(NVIDIA_APPS, 5).ifPresent(this::computeApps);
            }
            deviceStates(t);
            if (acceleratorQuery != null) {
                tools.run(acceleratorQuery, 5).ifPresent(out -> {
                    if (rocm) {
                        rocmSmi(out, t);
                    } else {
                        accelerators(out, t);
                    }
                });
            }
        } catch (RuntimeException e) {
            // a sample lost is not worth failing a run for
        }
    }

    /** Device state queries in the order tried: the first that answers is kept for the run. */
    private static final List<List<String>> STATE_QUERIES = List.of(
            DeviceStates.NVIDIA_QUERY,
            DeviceStates.NVIDIA_QUERY_BEFORE_535,
            DeviceStates.AMD_METRIC,
            DeviceStates.GAUDI_QUERY);

    /**
     * Each accelerator's identity and power and clock configuration as its tool reports them now; null when no tool on
     * this host answers.
     */
    public static List<AcceleratorDevice> devices(ToolRunner tools) {
        for (List<String> q : STATE_QUERIES) {
            Optional<List<DeviceState>> states = states(tools, q);
            if (states.isPresent()) {
                return states.get().stream().map(DeviceState::device).toList();
            }
        }
        return null;
    }

    private static Optional<List<DeviceState>> states(ToolRunner tools, List<String> query) {
        if (!tools.onPath(query.get(0))) {
            return Optional.empty();
        }
        return tools.run(query, 5)
                .map(out -> query == DeviceStates.AMD_METRIC
                        ? DeviceStates.amd(out)
                        : query == DeviceStates.GAUDI_QUERY ? DeviceStates.gaudi(out) : DeviceStates.nvidia(out))
                .filter(l -> !l.isEmpty());
    }

    /** Records each device's readings now, asking first the query that answered last. */
    private void deviceStates(double t) {
        List<List<String>> order = new ArrayList<>();
        if (stateQuery != null) {
            order.add(stateQuery);
        }
        STATE_QUERIES.stream().filter(q -> q != stateQuery).forEach(order::add);
        for (List<String> q : order) {
            Optional<List<DeviceState>> states = states(tools, q);
            if (states.isPresent()) {
                stateQuery = q;
                states(states.get(), t);
                return;
            }
        }
    }

    /** Adds the readings of one query's answer at {@code t}. */
    void states(List<DeviceState> states, double t) {
        for (DeviceState d : states) {
            d.readings()
                    .forEach((kind, v) ->
                            add(kind, new Sample(t, v, repetition, d.device().index())));
        }
    }

    /** Remembers compute processes that are neither the agent nor one of its descendants (the workload). */
    void computeApps(String out) {
        Set<Long> own = new HashSet<>();
        own.add(ProcessHandle.current().pid());
        ProcessHandle.current().descendants().forEach(p -> own.add(p.pid()));
        RunChecks.computeProcesses(out).stream().filter(p -> !own.contains(p)).forEach(foreignProcesses::add);
    }

    /** Compute processes other than the workload seen on the accelerators so far (NVIDIA only). */
    public Set<Long> foreignProcesses() {
        return Set.copyOf(foreignProcesses);
    }

    /** The highest accelerator utilisation (%) right now, asked once; null without nvidia-smi or hl-smi. */
    public Double utilisationNow() {
        if (acceleratorQuery == null || rocm) {
            return null;
        }
        return tools.run(acceleratorQuery, 5).map(Sampler::highestUtilisation).orElse(null);
    }

    static Double highestUtilisation(String out) {
        Double max = null;
        for (String line : out.split("\n")) {
            String[] f = line.split(",");
            if (f.length >= 2) {
                try {
                    double u = Double.parseDouble(f[1].strip());
                    if (Double.isFinite(u) && u >= 0) {
                        max = max == null ? u : Math.max(max, u);
                    }
                } catch (NumberFormatException e) {
                    // "[N/A]"
                }
            }
        }
        return max;
    }

    /** Lines of "index, utilisation %, memory used MiB, power W", as both tools print them for the queries above. */
    void accelerators(String out, double t) {
        for (String line : out.split("\n")) {
            String[] f = line.split(",");
            if (f.length < 4) {
                continue;
            }
            try {
                int device = Integer.parseInt(f[0].strip());
                put(SeriesKind.ACCELERATOR_UTILISATION, f[1], 1, t, device);
                put(SeriesKind.ACCELERATOR_MEMORY, f[2], 1024.0 * 1024, t, device);
                put(SeriesKind.POWER, f[3], 1, t, device);
            } catch (NumberFormatException e) {
                // "[N/A]" and the like
            }
        }
    }

    /** One rocm-smi JSON reading: per "cardN", utilisation %, VRAM used (bytes) and power (W) where the card reports them. */
    void rocmSmi(String json, double t) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (Exception e) {
            return;
        }
        if (root == null || !root.isObject()) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> card = it.next();
            if (!card.getKey().matches("card[0-9]{1,4}") || !card.getValue().isObject()) {
                continue;
            }
            int device = Integer.parseInt(card.getKey().substring(4));
            JsonNode c = card.getValue();
            put(SeriesKind.ACCELERATOR_UTILISATION, c.path("GPU use (%)").asText(""), 1, t, device);
            put(
                    SeriesKind.ACCELERATOR_MEMORY,
                    c.path("VRAM Total Used Memory (B)").asText(""),
                    1,
                    t,
                    device);
            for (Iterator<String> names = c.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (name.endsWith("Power (W)")) {
                    put(SeriesKind.POWER, c.path(name).asText(""), 1, t, device);
                    break;
                }
            }
        }
    }

    private void put(SeriesKind kind, String text, double factor, double t, int device) {
        try {
            double v = Double.parseDouble(text.strip()) * factor;
            if (Double.isFinite(v) && v >= 0) {
                add(kind, new Sample(t, v, repetition, device));
            }
        } catch (NumberFormatException e) {
            // not reported by this device
        }
    }

    private synchronized void add(SeriesKind kind, Sample s) {
        List<Sample> l = series.computeIfAbsent(kind, k -> new ArrayList<>());
        if (l.size() < 50_000) {
            l.add(s);
        }
    }

    public static String unit(SeriesKind kind) {
        return kind.unit();
    }

    /** The series gathered so far, sampling going on. */
    public synchronized Map<SeriesKind, List<Sample>> snapshot() {
        Map<SeriesKind, List<Sample>> out = new EnumMap<>(SeriesKind.class);
        series.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return out;
    }

    /** Stops sampling and returns the series gathered. */
    public synchronized Map<SeriesKind, List<Sample>> finish() {
        timer.shutdownNow();
        Map<SeriesKind, List<Sample>> out = new EnumMap<>(SeriesKind.class);
        series.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return out;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private static long[] cpuTimes() {
        try {
            String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] f = first.trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
            return new long[] {total, idle};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static long memoryUsed() {
        try {
            long total = 0;
            long available = 0;
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    total = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                } else if (line.startsWith("MemAvailable:")) {
                    available = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
            return total - available;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
