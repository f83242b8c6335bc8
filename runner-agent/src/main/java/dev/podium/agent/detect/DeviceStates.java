package dev.podium.agent.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.podium.events.model.AcceleratorDevice;
import dev.podium.events.model.SeriesKind;
import dev.podium.events.model.ThrottleReason;
import dev.podium.events.validate.DeviceReadings;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Each accelerator's state as its vendor tool reports it at one moment: its identity and power and clock configuration,
 * and the readings the sampler records (clocks, temperature, enforced power limit, throttle reasons, ECC errors). A field
 * the tool leaves out, reports as "[N/A]" or gives outside {@link DeviceReadings}' ranges is absent, never guessed.
 */
public final class DeviceStates {

    /** One device at one moment. */
    public record DeviceState(AcceleratorDevice device, Map<SeriesKind, Double> readings) {}

    /** The NVIDIA throttle fields, by the name drivers from 535 print, and the reason each means. */
    private static final Map<String, ThrottleReason> NVIDIA_REASONS = Map.of(
            "sw_power_cap", ThrottleReason.SW_POWER_CAP,
            "hw_slowdown", ThrottleReason.HW_SLOWDOWN,
            "sw_thermal_slowdown", ThrottleReason.SW_THERMAL_SLOWDOWN,
            "hw_thermal_slowdown", ThrottleReason.HW_THERMAL_SLOWDOWN,
            "hw_power_brake_slowdown", ThrottleReason.HW_POWER_BRAKE_SLOWDOWN);

    /**
     * The NVIDIA query, with a header so that fields are found by name whatever the driver's order. Drivers from 535 on
     * name the throttle fields clocks_event_reasons (and print those names in the header even when asked for the old
     * ones); older drivers know only clocks_throttle_reasons, hence {@link #NVIDIA_QUERY_BEFORE_535}.
     */
    public static final List<String> NVIDIA_QUERY = nvidiaQuery("clocks_event_reasons");

    public static final List<String> NVIDIA_QUERY_BEFORE_535 = nvidiaQuery("clocks_throttle_reasons");

    /** amd-smi's power metrics as JSON. */
    public static final List<String> AMD_METRIC = List.of("amd-smi", "metric", "--power", "--json");

    /**
     * Intel Gaudi's query, in the CSV form nvidia-smi's takes: only the fields a public output of {@code hl-smi -Q}
     * shows that bear on the device's state (see {@link #gaudi}).
     */
    public static final List<String> GAUDI_QUERY =
            List.of("hl-smi", "-Q", "index,uuid,temperature.aip", "-f", "csv,nounits");

    private static final ObjectMapper JSON = new ObjectMapper();

    private DeviceStates() {}

    private static List<String> nvidiaQuery(String reasons) {
        List<String> fields = new ArrayList<>(List.of(
                "index",
                "uuid",
                "pci.bus_id",
                "clocks.current.sm",
                "clocks.current.memory",
                "clocks.max.sm",
                "clocks.max.memory",
                "temperature.gpu",
                "power.limit",
                "power.default_limit",
                "ecc.errors.uncorrected.volatile.total",
                reasons + ".active"));
        NVIDIA_REASONS.keySet().stream().sorted().forEach(r -> fields.add(reasons + "." + r));
        return List.of("nvidia-smi", "--query-gpu=" + String.join(",", fields), "--format=csv,nounits");
    }

    /**
     * Rows of {@link #NVIDIA_QUERY} (or any {@code --query-gpu} CSV with a header). A reason counts as reported when its
     * own field says "Active" or the active bit mask has its bit: the two come from one NVML call, so a disagreement is
     * a broken tool, and the run is judged on the worse reading.
     */
    public static List<DeviceState> nvidia(String csv) {
        List<DeviceState> out = new ArrayList<>();
        for (Map<String, String> raw : CsvRows.parse(csv)) {
            Map<String, String> row = new HashMap<>();
            raw.forEach((k, v) -> row.put(k.replace("clocks_throttle_reasons.", "clocks_event_reasons."), v));
            Integer index = index(row.get("index"));
            if (index == null) {
                continue;
            }
            String identity = first(row.get("uuid"), row.get("pci.bus_id"));
            AcceleratorDevice device = new AcceleratorDevice(
                    index,
                    identity,
                    reading(SeriesKind.POWER_LIMIT, row.get("power.limit")),
                    reading(SeriesKind.POWER_LIMIT, row.get("power.default_limit")),
                    reading(SeriesKind.SM_CLOCK, row.get("clocks.max.sm")),
                    reading(SeriesKind.MEMORY_CLOCK, row.get("clocks.max.memory")));
            Map<SeriesKind, Double> readings = new EnumMap<>(SeriesKind.class);
            put(readings, SeriesKind.SM_CLOCK, row.get("clocks.current.sm"));
            put(readings, SeriesKind.MEMORY_CLOCK, row.get("clocks.current.memory"));
            put(readings, SeriesKind.TEMPERATURE, row.get("temperature.gpu"));
            put(readings, SeriesKind.POWER_LIMIT, row.get("power.limit"));
            put(readings, SeriesKind.ECC_ERRORS, row.get("ecc.errors.uncorrected.volatile.total"));
            nvidiaReasons(row).ifPresent(bits -> readings.put(SeriesKind.THROTTLE_REASONS, (double) bits));
            out.add(new DeviceState(device, readings));
        }
        return out;
    }

    /** The reported reasons as bits, or empty when the row has no throttle field the agent can read. */
    private static Optional<Long> nvidiaReasons(Map<String, String> row) {
        Set<ThrottleReason> reasons = EnumSet.noneOf(ThrottleReason.class);
        boolean read = false;
        Long mask = hex(row.get("clocks_event_reasons.active"));
        if (mask != null) {
            read = true;
            reasons.addAll(ThrottleReason.of(mask));
        }
        for (Map.Entry<String, ThrottleReason> e : NVIDIA_REASONS.entrySet()) {
            String v = row.get("clocks_event_reasons." + e.getKey());
            if ("Active".equals(v)) {
                reasons.add(e.getValue());
                read = true;
            } else if ("Not Active".equals(v)) {
                read = true;
            }
        }
        return read ? Optional.of(ThrottleReason.bits(reasons)) : Optional.empty();
    }

    /**
     * {@code amd-smi metric --power --json} ({@link #AMD_METRIC}): a list of GPUs, each with its power section. The only
     * throttle field public outputs show is {@code power.throttle_status}, and only as "UNTHROTTLED" (no reason); any
     * other value is left unread rather than mapped onto a reason it may not mean. Clocks, temperatures, limits and ECC
     * counts appear in no public JSON output of amd-smi, so they are unsupported here.
     */
    public static List<DeviceState> amd(String json) {
        List<DeviceState> out = new ArrayList<>();
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (Exception e) {
            return out;
        }
        if (root == null || !root.isArray()) {
            return out;
        }
        for (JsonNode gpu : root) {
            JsonNode index = gpu.path("gpu");
            if (!index.isInt() || index.asInt() < 0) {
                continue;
            }
            Map<SeriesKind, Double> readings = new EnumMap<>(SeriesKind.class);
            if ("UNTHROTTLED".equals(gpu.path("power").path("throttle_status").asText(""))) {
                readings.put(SeriesKind.THROTTLE_REASONS, 0.0);
            }
            out.add(new DeviceState(new AcceleratorDevice(index.asInt(), null, null, null, null, null), readings));
        }
        return out;
    }

    /**
     * {@code hl-smi -Q ... -f csv} ({@link #GAUDI_QUERY}) with its header: each device's identity (its uuid, else its
     * bus id) and temperature. Public outputs show no clocks, power limits, throttle reasons or error counts from
     * {@code hl-smi -Q}, so those are unsupported for Gaudi and never guessed. A row without an index column is the
     * device at its place in the output, as hl-smi lists devices in index order.
     */
    public static List<DeviceState> gaudi(String csv) {
        List<DeviceState> out = new ArrayList<>();
        List<Map<String, String>> rows = CsvRows.parse(csv);
        for (int i = 0; i < rows.size(); i++) {
            Map<String, String> row = rows.get(i);
            Integer index = row.containsKey("index") ? index(row.get("index")) : Integer.valueOf(i);
            if (index == null) {
                continue;
            }
            Map<SeriesKind, Double> readings = new EnumMap<>(SeriesKind.class);
            put(readings, SeriesKind.TEMPERATURE, row.get("temperature.aip"));
            String identity = first(row.get("uuid"), row.get("bus_id"));
            out.add(new DeviceState(new AcceleratorDevice(index, identity, null, null, null, null), readings));
        }
        return out;
    }

    private static void put(Map<SeriesKind, Double> readings, SeriesKind kind, String text) {
        Double v = reading(kind, text);
        if (v != null) {
            readings.put(kind, v);
        }
    }

    private static Double reading(SeriesKind kind, String text) {
        if (text == null) {
            return null;
        }
        String t = text.replaceAll("\\s*(MHz|W|C|%)$", "").strip();
        try {
            double v = Double.parseDouble(t);
            return DeviceReadings.plausible(kind, v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long hex(String text) {
        if (text == null || !text.matches("0x[0-9a-fA-F]{1,16}")) {
            return null;
        }
        return Long.parseUnsignedLong(text.substring(2), 16) & ThrottleReason.ALL;
    }

    private static Integer index(String text) {
        return text != null && text.matches("[0-9]{1,4}") ? Integer.parseInt(text) : null;
    }

    private static String first(String a, String b) {
        for (String s : new String[] {a, b}) {
            if (s != null && !s.isBlank() && !s.startsWith("[") && s.length() <= 128 && s.matches("[ -~]+")) {
                return s.strip();
            }
        }
        return null;
    }
}
