package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hugging Face Trainer output: the {@code ***** train metrics *****} block (runtimes as {@code H:MM:SS.cc}), the metrics
 * dict line Trainer logs at the end ({@code {'train_runtime': 3.2, ...}}, a Python literal read with a pattern, never
 * evaluated), and {@code all_results.json} / {@code train_results.json} (a flat JSON object). The block wins over the
 * dict line, which wins over nothing.
 */
public final class HfTrainerParser implements OutputParser {

    private static final Pattern HEADER = Pattern.compile("^\\s*\\*{5} (\\w+) metrics \\*{5}\\s*$");
    private static final Pattern BLOCK_LINE = Pattern.compile("^\\s+([A-Za-z0-9_./-]+)\\s*=\\s*(\\S+)\\s*$");
    private static final Pattern HMS = Pattern.compile("^(\\d+):(\\d{2}):(\\d{2}(?:\\.\\d+)?)$");
    private static final Pattern DICT_LINE = Pattern.compile("^\\s*\\{\\s*'[A-Za-z0-9_]+'\\s*:.*}\\s*$");
    private static final Pattern DICT_ENTRY = Pattern.compile("'([A-Za-z0-9_./-]{1,128})'\\s*:\\s*([-+0-9.eE]+|nan|inf|-inf)");

    @Override
    public String format() {
        return "hf-trainer";
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format());
        String trimmed = text.stripLeading();
        if (trimmed.startsWith("{\"") || trimmed.startsWith("{\n") || trimmed.startsWith("{ \"")) {
            JsonNode json = Json.read(trimmed, c);
            if (json != null && json.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (e.getValue().isNumber()) {
                        add(c, e.getKey(), e.getValue().asDouble());
                    }
                }
                return c.result();
            }
        }
        Collector fromDict = new Collector(format());
        boolean inBlock = false;
        boolean sawBlock = false;
        for (String raw : Lines.of(text)) {
            String line = Lines.stripAnsi(raw);
            if (HEADER.matcher(line).matches()) {
                inBlock = true;
                sawBlock = true;
                continue;
            }
            if (inBlock) {
                Matcher m = BLOCK_LINE.matcher(line);
                if (m.matches()) {
                    Double v = value(m.group(2));
                    if (v == null) {
                        c.warn("unreadable value for " + Collector.clean(m.group(1)));
                    } else {
                        add(c, m.group(1), v);
                    }
                    continue;
                }
                inBlock = false;
            }
            if (DICT_LINE.matcher(line).matches()) {
                Matcher m = DICT_ENTRY.matcher(line);
                while (m.find()) {
                    Double v = value(m.group(2));
                    if (v != null) {
                        add(fromDict, m.group(1), v);
                    }
                }
            }
        }
        if (!sawBlock || c.isEmpty()) {
            c.result().warnings().forEach(fromDict::warn);
            return fromDict.result();
        }
        return c.result();
    }

    private static void add(Collector c, String name, double v) {
        String unit = name.endsWith("_runtime") ? "s"
                : name.endsWith("samples_per_second") ? "samples/s"
                : name.endsWith("steps_per_second") ? "steps/s"
                : name.endsWith("tokens_per_second") ? "tokens/s"
                : name.endsWith("_flos") ? "FLOP"
                : "1";
        c.metric(name, v, unit, Collector.guessDirection(name, unit));
    }

    /** A number or an H:MM:SS.cc duration in seconds; null otherwise. */
    static Double value(String text) {
        Matcher m = HMS.matcher(text);
        if (m.matches()) {
            int minutes = Integer.parseInt(m.group(2));
            double seconds = Double.parseDouble(m.group(3));
            if (minutes >= 60 || seconds >= 60 || m.group(1).length() > 6) {
                return null;
            }
            return Integer.parseInt(m.group(1)) * 3600.0 + minutes * 60.0 + seconds;
        }
        if (text.endsWith("GF")) {
            // Trainer prints total_flos in gigaFLOPs with a "GF" suffix.
            Double g = Collector.number(text.substring(0, text.length() - 2));
            return g == null ? null : g * 1e9;
        }
        return Collector.number(text);
    }
}
