package dev.podium.agent.detect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CSV that nvidia-smi and hl-smi print for {@code --format=csv}: a header line of field names, each optionally
 * followed by a unit in brackets ({@code memory.total [MiB]}), then one line per device, values separated by ", ".
 * Values never contain commas for the fields the agent asks for.
 */
final class CsvRows {

    private CsvRows() {}

    /** Rows as maps from field name (without unit, lower case) to trimmed value; lines of the wrong width are skipped. */
    static List<Map<String, String>> parse(String text) {
        List<Map<String, String>> rows = new ArrayList<>();
        List<String> lines =
                text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.isEmpty()) {
            return rows;
        }
        String[] header = lines.get(0).split(",");
        for (int i = 0; i < header.length; i++) {
            header[i] = header[i].replaceAll("\\[.*?]", "").strip().toLowerCase(Locale.ROOT);
        }
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            if (cells.length != header.length) {
                continue;
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < cells.length; i++) {
                row.put(header[i], cells[i].strip());
            }
            rows.add(row);
        }
        return rows;
    }

    /** A memory size such as "81559 MiB", "97871 MB" or "81559" (MiB assumed) in bytes; 0 when not a size. */
    static long memoryBytes(String value) {
        if (value == null) {
            return 0;
        }
        Matcher m = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([KMGT]i?B)?", Pattern.CASE_INSENSITIVE)
                .matcher(value.strip());
        if (!m.lookingAt()) {
            return 0;
        }
        double v = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "MiB" : m.group(2).toUpperCase(Locale.ROOT);
        long factor = switch (unit.charAt(0)) {
            case 'K' -> 1024L;
            case 'G' -> 1024L * 1024 * 1024;
            case 'T' -> 1024L * 1024 * 1024 * 1024;
            default -> 1024L * 1024;
        };
        return (long) (v * factor);
    }
}
