package dev.podium.agent.parse;

import java.util.List;
import java.util.regex.Matcher;

/** Metrics found with the regex templates a job spec declares. */
public final class RegexParser implements OutputParser {

    private final List<RegexTemplate> templates;

    public RegexParser(List<RegexTemplate> templates) {
        this.templates = List.copyOf(templates);
    }

    @Override
    public String format() {
        return "regex";
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format());
        List<String> lines = Lines.of(text).stream().map(Lines::stripAnsi).toList();
        for (RegexTemplate t : templates) {
            double sum = 0;
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            double last = Double.NaN;
            int n = 0;
            for (String line : lines) {
                Matcher m = t.pattern().matcher(line);
                if (!m.find()) {
                    continue;
                }
                String g = groupValue(m);
                Double v = Collector.number(g);
                if (v == null) {
                    continue;
                }
                sum += v;
                min = Math.min(min, v);
                max = Math.max(max, v);
                last = v;
                n++;
            }
            if (n == 0) {
                c.warn("template " + t.name() + " matched nothing");
                continue;
            }
            double value = switch (t.aggregate() == null ? "last" : t.aggregate()) {
                case "mean" -> sum / n;
                case "max" -> max;
                case "min" -> min;
                default -> last;
            };
            c.metric(t.name(), value, t.unit(), t.direction());
        }
        return c.result();
    }

    private static String groupValue(Matcher m) {
        try {
            return m.group("value");
        } catch (IllegalArgumentException e) {
            return m.groupCount() >= 1 ? m.group(1) : m.group();
        }
    }
}
