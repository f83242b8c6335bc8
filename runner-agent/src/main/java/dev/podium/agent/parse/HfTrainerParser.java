package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hugging Face Trainer output, as transformers' {@code Trainer.log_metrics} and optimum-habana print it:
 * <ul>
 * <li>the {@code ***** train metrics *****} block: {@code "  key = value"} lines, keys sorted and of any text (optimum-habana
 * adds {@code max_memory_allocated (GB)}: the parenthesis is the unit), values as {@code metrics_format} writes them
 * (runtimes as {@code [D day[s], ]H:MM:SS.cc}, {@code total_flos} in units of 2^30 FLOP with a {@code GF} suffix, memory
 * deltas in MiB with an {@code MB} suffix, other values maybe with a unit suffix);</li>
 * <li>the metrics dict line Trainer logs at the end ({@code {'train_runtime': 3.2, ...}}, a Python literal read with a
 * pattern, never evaluated);</li>
 * <li>optimum-habana's text-generation {@code Stats:} block ({@code Throughput (including tokenization) = 512.3 tokens/second});</li>
 * <li>{@code all_results.json} / {@code train_results.json} (a flat JSON object as Python's json.dump writes it).</li>
 * </ul>
 * A block wins over the dict line, which wins over nothing.
 */
public final class HfTrainerParser implements OutputParser {

    private static final Pattern HEADER = Pattern.compile("^\\s*\\*{5} (\\w+) metrics \\*{5}\\s*$");
    /** Any key that starts with a letter, spaces and parentheses included; a line like {@code $(rm -rf /) = 1} ends the block. */
    private static final Pattern BLOCK_LINE = Pattern.compile("^\\s+(\\p{L}.{0,199}?)\\s*=\\s*(\\S.{0,99}?)\\s*$");

    private static final Pattern STATS_HEADER = Pattern.compile("^\\s*Stats:\\s*$");
    private static final Pattern SEPARATOR = Pattern.compile("^\\s*-{3,}\\s*$");
    private static final Pattern STATS_LINE = Pattern.compile("^\\s*([A-Za-z][^=]{0,99}?)\\s*=\\s*(\\S.{0,99}?)\\s*$");
    private static final Pattern HMS = Pattern.compile("^(?:(\\d{1,6}) days?, )?(\\d+):(\\d{2}):(\\d{2}(?:\\.\\d+)?)$");
    private static final Pattern WITH_SUFFIX = Pattern.compile(
            "^([-+]?(?:[0-9][0-9,]*\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?)\\s*([A-Za-z%/]{1,16})?$");
    private static final Pattern UNIT_IN_KEY = Pattern.compile("^(.*?)\\s*\\(([A-Za-z%/]{1,12})\\)$");
    private static final Pattern DICT_LINE = Pattern.compile("^\\s*\\{\\s*'[^']{1,128}'\\s*:.*}\\s*$");
    private static final Pattern DICT_ENTRY = Pattern.compile("'([^'\\\\]{1,128})'\\s*:\\s*([-+0-9.eE]+|nan|inf|-inf)");
    private static final double GIBI = 1024.0 * 1024 * 1024;

    @Override
    public String format() {
        return "hf-trainer";
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format());
        String trimmed = text.stripLeading();
        if (trimmed.startsWith("{\"") || trimmed.startsWith("{\n") || trimmed.startsWith("{ \"")) {
            JsonNode json = Json.readPython(trimmed, c);
            if (json != null && json.isObject()) {
                return fromJson(c, json);
            }
        }
        Collector fromDict = new Collector(format());
        boolean inBlock = false;
        boolean inStats = false;
        boolean statsOpen = false;
        boolean sawBlock = false;
        for (String raw : Lines.of(text)) {
            String line = Lines.stripAnsi(raw);
            if (HEADER.matcher(line).matches()) {
                inBlock = true;
                inStats = false;
                sawBlock = true;
                continue;
            }
            if (STATS_HEADER.matcher(line).matches()) {
                inStats = true;
                statsOpen = false;
                inBlock = false;
                sawBlock = true;
                continue;
            }
            if (inBlock) {
                Matcher m = BLOCK_LINE.matcher(line);
                if (m.matches()) {
                    blockEntry(c, m.group(1), m.group(2));
                    continue;
                }
                inBlock = false;
            }
            if (inStats) {
                // The block is framed by two separator lines; a line without '=' ("Input tokens") is a heading in it.
                if (SEPARATOR.matcher(line).matches()) {
                    inStats = !statsOpen;
                    statsOpen = !statsOpen;
                    continue;
                }
                Matcher m = STATS_LINE.matcher(line);
                if (m.matches()) {
                    statsEntry(c, m.group(1), m.group(2));
                }
                continue;
            }
            if (DICT_LINE.matcher(line).matches()) {
                dictEntries(fromDict, line);
            }
        }
        if (!sawBlock || c.isEmpty()) {
            c.result().warnings().forEach(fromDict::warn);
            return fromDict.result();
        }
        return c.result();
    }

    /** A whole output that is one JSON object ({@code all_results.json}, {@code trainer_state.json}-like): its numbers. */
    private static ParseResult fromJson(Collector c, JsonNode json) {
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNumber()) {
                add(c, e.getKey(), e.getValue().asDouble(), null);
            }
        }
        return c.result();
    }

    /** The entries of one logged {@code {'loss': 0.5, ...}} line. */
    private static void dictEntries(Collector c, String line) {
        Matcher m = DICT_ENTRY.matcher(line);
        while (m.find()) {
            Double v = value(m.group(2));
            if (v != null) {
                add(c, m.group(1), v, null);
            } else {
                c.warn("ignored non-finite value of " + Collector.clean(m.group(1)));
            }
        }
    }

    /** One line of a {@code ***** split metrics *****} block. */
    private static void blockEntry(Collector c, String key, String text) {
        Double v = value(text);
        String suffix = null;
        if (v == null) {
            Matcher s = WITH_SUFFIX.matcher(text);
            if (s.matches()) {
                v = Collector.number(s.group(1));
                suffix = s.group(2);
            }
        }
        if (v == null) {
            c.warn("unreadable value for " + Collector.clean(key));
            return;
        }
        if (key.contains("_mem_") && "MB".equals(suffix)) {
            suffix = "MiB"; // metrics_format writes memory as bytes >> 20
        }
        add(c, key, v, suffix);
    }

    /** One line of optimum-habana's text-generation {@code Stats:} block: a label, a number and its unit. */
    private static void statsEntry(Collector c, String label, String text) {
        Matcher s =
                WITH_SUFFIX.matcher(text.replace(" tokens/second", "tokens/s").replace(" seconds", "s"));
        Double v = s.matches() ? Collector.number(s.group(1)) : null;
        String name = label.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "_")
                .replaceAll("^_+|_+$", "");
        if (v == null) {
            c.warn("unreadable value for " + Collector.clean(name));
            return;
        }
        String unit = s.group(2);
        if (unit == null) {
            c.info(name, text); // a count such as "Number of HPU graphs" is a fact, not a result
            return;
        }
        c.metric(name, v, unit, Collector.guessDirection(name, unit));
    }

    private static void add(Collector c, String key, double v, String suffix) {
        String name = key.strip();
        String unit = suffix;
        Matcher k = UNIT_IN_KEY.matcher(name);
        if (k.matches() && !k.group(1).isEmpty()) {
            name = k.group(1);
            unit = k.group(2);
        }
        if (unit == null) {
            unit = name.endsWith("_runtime")
                    ? "s"
                    : name.endsWith("samples_per_second")
                            ? "samples/s"
                            : name.endsWith("steps_per_second")
                                    ? "steps/s"
                                    : name.endsWith("tokens_per_second")
                                            ? "tokens/s"
                                            : name.endsWith("_flos") ? "FLOP" : "1";
        }
        c.metric(name, v, unit, Collector.guessDirection(name, unit));
    }

    /** A number, a {@code [D days, ]H:MM:SS.cc} duration in seconds or a {@code GF} FLOP count; null otherwise. */
    static Double value(String text) {
        Matcher m = HMS.matcher(text);
        if (m.matches()) {
            int minutes = Integer.parseInt(m.group(3));
            double seconds = Double.parseDouble(m.group(4));
            // timedelta prints whole days apart, so the hours are below 24.
            if (m.group(2).length() > 2 || Integer.parseInt(m.group(2)) >= 24 || minutes >= 60 || seconds >= 60) {
                return null;
            }
            long days = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
            return days * 86400.0 + Integer.parseInt(m.group(2)) * 3600.0 + minutes * 60.0 + seconds;
        }
        if (text.endsWith("GF")) {
            // metrics_format writes total_flos as int(flos) >> 30 with a "GF" suffix.
            Double g = Collector.number(text.substring(0, text.length() - 2));
            return g == null ? null : g * GIBI;
        }
        return Collector.number(text);
    }
}
