package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.model.Direction;

/**
 * Podium's own JSON-lines protocol (see the module README): any line that is a JSON object with {@code "podium": 1}.
 * {@code type} is {@code metric} (name, value, unit, direction "higher"|"lower"), {@code step} (step, warmup, samples,
 * seconds, samples_per_second) or {@code info} (string facts). Other lines are ignored, so a workload may print anything
 * else. When no metric line names {@code train_samples_per_second}, it is computed from the measured (non-warm-up) steps.
 */
public final class JsonLinesParser implements OutputParser {

    public static final String THROUGHPUT = "train_samples_per_second";

    @Override
    public String format() {
        return "jsonl";
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format());
        long samples = 0;
        double seconds = 0;
        int bad = 0;
        for (String raw : Lines.of(text)) {
            String line = raw.strip();
            if (!line.startsWith("{") || !line.contains("\"podium\"")) {
                continue;
            }
            JsonNode n;
            try {
                n = Json.MAPPER.readTree(line);
            } catch (Exception e) {
                bad++;
                continue;
            }
            if (n == null || !n.isObject() || n.path("podium").asInt(0) != 1) {
                continue;
            }
            switch (n.path("type").asText("")) {
                case "metric" -> {
                    JsonNode v = n.get("value");
                    if (v == null || !v.isNumber()) {
                        c.warn("metric line without a numeric value: " + Collector.clean(n.path("name").asText()));
                        continue;
                    }
                    String unit = n.path("unit").asText("1");
                    String dir = n.path("direction").asText("");
                    Direction d = dir.equals("higher") ? Direction.HIGHER_IS_BETTER
                            : dir.equals("lower") ? Direction.LOWER_IS_BETTER
                            : Collector.guessDirection(n.path("name").asText(), unit);
                    c.metric(n.path("name").asText(""), v.asDouble(), unit, d);
                }
                case "step" -> {
                    double s = n.path("seconds").asDouble(Double.NaN);
                    int k = n.path("samples").asInt(0);
                    if (!Double.isFinite(s) || s <= 0 || k <= 0 || k > 1_000_000_000) {
                        c.warn("step line with unusable samples or seconds");
                        continue;
                    }
                    boolean warmup = n.path("warmup").asBoolean(false);
                    c.step(new StepSample(n.path("step").asLong(0), warmup, k, s, k / s));
                    if (!warmup) {
                        samples += k;
                        seconds += s;
                    }
                }
                case "info" -> n.fields().forEachRemaining(e -> {
                    if (e.getValue().isValueNode() && !e.getKey().equals("podium") && !e.getKey().equals("type")) {
                        c.info(e.getKey(), e.getValue().asText());
                    }
                });
                default -> {
                }
            }
        }
        if (bad > 0) {
            c.warn(bad + " protocol lines were not valid JSON");
        }
        ParseResult r = c.result();
        if (r.metric(THROUGHPUT).isEmpty() && seconds > 0) {
            c.metric(THROUGHPUT, samples / seconds, "samples/s", Direction.HIGHER_IS_BETTER);
            r = c.result();
        }
        return r;
    }
}
