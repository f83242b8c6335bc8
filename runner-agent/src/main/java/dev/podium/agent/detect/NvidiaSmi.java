package dev.podium.agent.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** NVIDIA GPUs from {@code nvidia-smi --query-gpu=... --format=csv}; the CUDA version from the plain banner. */
public final class NvidiaSmi {

    public static final List<String> QUERY = List.of(
            "nvidia-smi",
            "--query-gpu=index,name,memory.total,driver_version,vbios_version,pci.bus_id",
            "--format=csv");
    private static final Pattern CUDA = Pattern.compile("CUDA Version\\s*:?\\s*([0-9]+\\.[0-9]+)");

    private NvidiaSmi() {}

    public static List<DetectedDevice> detect(ToolRunner tools) {
        Optional<String> table = tools.run(List.of("nvidia-smi"), 15);
        if (table.isEmpty()) {
            return List.of();
        }
        String runtime = cudaVersion(table.get()).map(v -> "CUDA " + v).orElse(null);
        // The CSV query is exact; the table is the fallback for drivers whose query fields differ.
        List<DetectedDevice> devices =
                tools.run(QUERY, 15).map(csv -> parse(csv, runtime)).orElse(List.of());
        return devices.isEmpty() ? parseTable(table.get()) : devices;
    }

    private static final Pattern DRIVER = Pattern.compile("Driver Version\\s*:?\\s*([0-9][0-9.]+)");
    private static final Pattern GPU_ROW =
            Pattern.compile("^\\|\\s+(\\d+)\\s+(.+?)\\s+(On|Off)\\s+\\|\\s+([0-9A-Fa-f:.]+)\\s");

    /**
     * Devices from the table plain {@code nvidia-smi} prints: a row "|   0  NVIDIA H100 80GB HBM3   On  | 00000000:18:00.0 Off |"
     * followed by a row with "1MiB /  81559MiB". Long names are cut by nvidia-smi ("NVIDIA A100-SXM..."); the alias table
     * then finds the variant-unspecified device.
     */
    public static List<DetectedDevice> parseTable(String table) {
        String runtime = cudaVersion(table).map(v -> "CUDA " + v).orElse(null);
        return SmiTable.parse(table, DRIVER, GPU_ROW, "NVIDIA", driver -> runtime);
    }

    public static List<DetectedDevice> parse(String csv, String runtime) {
        List<DetectedDevice> out = new ArrayList<>();
        for (Map<String, String> row : CsvRows.parse(csv)) {
            String name = row.get("name");
            if (name == null || name.isBlank()) {
                continue;
            }
            out.add(new DetectedDevice(
                    "NVIDIA",
                    name,
                    CsvRows.memoryBytes(row.get("memory.total")),
                    blankToNull(row.get("driver_version")),
                    blankToNull(row.get("vbios_version")),
                    runtime,
                    blankToNull(row.get("pci.bus_id"))));
        }
        return out;
    }

    /** The CUDA version from the banner of plain {@code nvidia-smi} or {@code nvidia-smi -q}. */
    public static Optional<String> cudaVersion(String output) {
        Matcher m = CUDA.matcher(output);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    static String blankToNull(String s) {
        return s == null || s.isBlank() || s.equalsIgnoreCase("N/A") || s.startsWith("[") ? null : s;
    }
}
