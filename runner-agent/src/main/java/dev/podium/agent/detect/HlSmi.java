package dev.podium.agent.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Intel Gaudi devices from {@code hl-smi -Q name,memory.total,driver_version,bus_id -f csv}. */
public final class HlSmi {

    public static final List<String> QUERY = List.of("hl-smi", "-Q", "name,memory.total,driver_version,bus_id", "-f", "csv");

    private HlSmi() {
    }

    public static List<DetectedDevice> detect(ToolRunner tools) {
        Optional<String> csv = tools.run(QUERY, 15);
        return csv.map(HlSmi::parse).orElse(List.of());
    }

    public static List<DetectedDevice> parse(String csv) {
        List<DetectedDevice> out = new ArrayList<>();
        for (Map<String, String> row : CsvRows.parse(csv)) {
            String name = row.get("name");
            if (name == null || name.isBlank()) {
                continue;
            }
            String driver = NvidiaSmi.blankToNull(row.get("driver_version"));
            // hl-smi reports the driver as e.g. "1.16.0-4b0d8e2"; the SynapseAI release is its version prefix.
            String runtime = driver == null ? null : "SynapseAI " + driver.replaceAll("-.*$", "");
            out.add(new DetectedDevice("Intel", name, CsvRows.memoryBytes(row.get("memory.total")), driver, null, runtime,
                    NvidiaSmi.blankToNull(row.get("bus_id"))));
        }
        return out;
    }
}
