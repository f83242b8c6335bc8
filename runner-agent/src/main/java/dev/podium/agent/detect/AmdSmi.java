package dev.podium.agent.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.device.DeviceAliases;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * AMD Instinct GPUs from {@code rocm-smi --showproductname --showmeminfo vram --showdriverversion --json} or, on newer ROCm,
 * {@code amd-smi static --json}. Both print JSON whose shape changed between releases, so fields are looked up by the
 * names the releases used, and an unknown shape yields no devices rather than an error.
 */
public final class AmdSmi {

    public static final List<String> ROCM_SMI =
            List.of("rocm-smi", "--showproductname", "--showmeminfo", "vram", "--showdriverversion", "--json");
    public static final List<String> AMD_SMI = List.of("amd-smi", "static", "--json");
    private static final ObjectMapper JSON = new ObjectMapper();

    private AmdSmi() {}

    public static List<DetectedDevice> detect(ToolRunner tools) {
        Optional<String> amd = tools.run(AMD_SMI, 20);
        if (amd.isPresent()) {
            List<DetectedDevice> d = parseAmdSmi(amd.get(), null);
            if (!d.isEmpty()) {
                return d;
            }
        }
        return tools.run(ROCM_SMI, 20).map(j -> parseRocmSmi(j, null)).orElse(List.of());
    }

    /** rocm-smi JSON: {"card0": {"Card series": ..., "VRAM Total Memory (B)": ...}, "system": {"Driver version": ...}}. */
    public static List<DetectedDevice> parseRocmSmi(String json, String runtime) {
        List<DetectedDevice> out = new ArrayList<>();
        JsonNode root = read(json);
        if (root == null || !root.isObject()) {
            return out;
        }
        String driver = text(root.path("system"), "Driver version", "Driver Version");
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> card = it.next();
            if (!card.getKey().startsWith("card")) {
                continue;
            }
            JsonNode c = card.getValue();
            String model = text(c, "Card Series", "Card series", "Device Name", "Card model", "Card Model");
            if (model == null) {
                continue;
            }
            model = byPciId(model, text(c, "Card Model", "Card model", "Device ID"));
            long mem = 0;
            String memText = text(c, "VRAM Total Memory (B)");
            if (memText != null && memText.matches("[0-9]+")) {
                mem = Long.parseLong(memText);
            }
            out.add(new DetectedDevice(
                    "AMD", model, mem, driver, text(c, "VBIOS version"), runtime, text(c, "PCI Bus")));
        }
        return out;
    }

    /**
     * PCI device ids of Instinct boards (from the PCI ID repository) whose rocm-smi series names only the family:
     * an MI250X reports "AMD INSTINCT MI200 (MCM) OAM LC MBA HPE C2" with card model 0x7408, and ROCm 4 reported an
     * MI100's series as "0x738c". 0x740c is left out: MI250 and MI250X share it.
     */
    static final Map<String, String> INSTINCT_PCI_IDS = Map.of(
            "0x738c", "AMD Instinct MI100",
            "0x7408", "AMD Instinct MI250X",
            "0x740f", "AMD Instinct MI210",
            "0x74a1", "AMD Instinct MI300X");

    /** The reported name, unless it names no known device and the PCI id does. */
    static String byPciId(String reported, String pciId) {
        if (DeviceAliases.resolve(reported).isPresent()) {
            return reported;
        }
        for (String id : new String[] {pciId, reported}) {
            String name = id == null ? null : INSTINCT_PCI_IDS.get(id.strip().toLowerCase(Locale.ROOT));
            if (name != null) {
                return name;
            }
        }
        return reported;
    }

    /** {@code rocm-smi --showproductname --csv}: "device,Card series,Card model,Card vendor,Card SKU" then one row per card. */
    public static List<DetectedDevice> parseRocmSmiCsv(String csv) {
        List<DetectedDevice> out = new ArrayList<>();
        for (Map<String, String> row : CsvRows.parse(csv)) {
            String device = row.getOrDefault("device", "");
            String series = row.get("card series");
            if (!device.startsWith("card") || series == null || series.isBlank()) {
                continue;
            }
            // "Arcturus GL-XL [AMD Instinct MI100]": the marketing name is in brackets when there is one.
            Matcher m = Pattern.compile("\\[(AMD [^\\]]+)]").matcher(series);
            out.add(new DetectedDevice("AMD", m.find() ? m.group(1) : series, 0, null, null, null, null));
        }
        return out;
    }

    /** amd-smi static JSON: a list (or {"gpu_data": [...]}) of {"asic": {"market_name"}, "vram": {"size"}, "driver": ...}. */
    public static List<DetectedDevice> parseAmdSmi(String json, String runtime) {
        List<DetectedDevice> out = new ArrayList<>();
        JsonNode root = read(json);
        if (root == null) {
            return out;
        }
        JsonNode gpus = root.isArray() ? root : root.path("gpu_data");
        if (!gpus.isArray()) {
            return out;
        }
        for (JsonNode g : gpus) {
            String model = text(g.path("asic"), "market_name");
            if (model == null) {
                model = text(g.path("board"), "product_name");
            }
            if (model == null) {
                continue;
            }
            JsonNode size = g.path("vram").path("size");
            long mem = 0;
            if (size.isObject() && size.path("value").isNumber()) {
                mem = CsvRows.memoryBytes(size.path("value").asLong() + " "
                        + size.path("unit").asText("MB").replace("MB", "MiB"));
            } else if (size.isTextual()) {
                mem = CsvRows.memoryBytes(size.asText().replace(" MB", " MiB"));
            } else if (size.isNumber()) {
                mem = size.asLong() * 1024 * 1024;
            }
            out.add(new DetectedDevice(
                    "AMD",
                    model,
                    mem,
                    text(g.path("driver"), "version"),
                    text(g.path("vbios"), "version", "part_number"),
                    runtime,
                    text(g.path("bus"), "bdf")));
        }
        return out;
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            return null;
        }
    }

    private static String text(JsonNode node, String... names) {
        for (String n : names) {
            JsonNode v = node.get(n);
            if (v != null
                    && v.isValueNode()
                    && !v.asText().isBlank()
                    && !v.asText().equalsIgnoreCase("N/A")) {
                return v.asText().strip();
            }
        }
        return null;
    }
}
