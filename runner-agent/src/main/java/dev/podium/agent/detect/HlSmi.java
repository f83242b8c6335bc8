package dev.podium.agent.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Intel Gaudi devices from {@code hl-smi -Q name,memory.total,driver_version,bus_id -f csv}, or from the table plain
 * {@code hl-smi} prints when the query gives nothing.
 */
public final class HlSmi {

    public static final List<String> QUERY =
            List.of("hl-smi", "-Q", "name,memory.total,driver_version,bus_id", "-f", "csv");

    private HlSmi() {}

    public static List<DetectedDevice> detect(ToolRunner tools) {
        List<DetectedDevice> devices = tools.run(QUERY, 15).map(HlSmi::parse).orElse(List.of());
        return devices.isEmpty()
                ? tools.run(List.of("hl-smi"), 15).map(HlSmi::parseTable).orElse(List.of())
                : devices;
    }

    private static final Pattern DRIVER = Pattern.compile("Driver Version:\\s*([0-9][0-9A-Za-z.-]*)");
    private static final Pattern AIP_ROW =
            Pattern.compile("^\\|\\s+(\\d+)\\s+(\\S.*?)\\s+(N/A|On|Off)\\s*\\|\\s+([0-9A-Fa-f]{4}:[0-9A-Fa-f:.]+)\\s");

    /**
     * Devices from the table plain {@code hl-smi} prints: "|   0  HL-225   N/A  | 0000:33:00.0     N/A |" followed by a row
     * with "94963MiB /  98304MiB"; the driver from the "Driver Version:" line of the header.
     */
    public static List<DetectedDevice> parseTable(String table) {
        return SmiTable.parse(table, DRIVER, AIP_ROW, "Intel", HlSmi::synapse);
    }

    private static String synapse(String driver) {
        // hl-smi reports the driver as e.g. "1.16.0-4b0d8e2"; the SynapseAI release is its version prefix.
        return driver == null ? null : "SynapseAI " + driver.replaceAll("-.*$", "");
    }

    public static List<DetectedDevice> parse(String csv) {
        List<DetectedDevice> out = new ArrayList<>();
        for (Map<String, String> row : CsvRows.parse(csv)) {
            String name = row.get("name");
            if (name == null || name.isBlank()) {
                continue;
            }
            String driver = NvidiaSmi.blankToNull(row.get("driver_version"));
            out.add(new DetectedDevice(
                    "Intel",
                    name,
                    CsvRows.memoryBytes(row.get("memory.total")),
                    driver,
                    null,
                    synapse(driver),
                    NvidiaSmi.blankToNull(row.get("bus_id"))));
        }
        return out;
    }
}
