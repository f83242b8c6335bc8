package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.model.Direction;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Podium's own JSON-lines protocol (see the module README): any line that is a JSON object with {@code "podium": 1}.
 * {@code type} is {@code metric} (name, value, unit, direction "higher"|"lower"), {@code step} (step, warmup, samples,
 * seconds, samples_per_second) or {@code info} (string facts). Other lines are ignored, so a workload may print anything
 * else. When no metric line names {@code train_samples_per_second}, it is computed from the measured (non-warm-up) steps;
 * either way the steps' rates are its samples, and the steps' times give {@code step_time_mean_ms} and its percentiles.
 */
public final class JsonLinesParser implements OutputParser {

    public static final String THROUGHPUT = "train_samples_per_second";
    public static final String STEP_TIME = "step_time_mean_ms";

    @Override
    public String format() {
        return "jsonl";
    }

    /** The step a single output line reports, if it is a well-formed protocol step line; for progress while a run executes. */
    public static Optional<StepSample> stepLine(String raw) {
        String line = raw == null ? "" : raw.strip();
        if (!line.startsWith("{") || !line.contains("\"step\"") || line.length() > 64 * 1024) {
            return Optional.empty();
        }
        try {
            JsonNode n = Json.MAPPER.readTree(line);
            if (n == null
                    || !n.isObject()
                    || n.path("podium").asInt(0) != 1
                    || !n.path("type").asText("").equals("step")) {
                return Optional.empty();
            }
            return Optional.ofNullable(step(n));
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** The loss a measured (not warm-up) protocol step line reports, if any. */
    public static OptionalDouble stepLoss(String raw) {
        String line = raw == null ? "" : raw.strip();
        if (!line.startsWith("{") || !line.contains("\"loss\"") || line.length() > 64 * 1024) {
            return OptionalDouble.empty();
        }
        try {
            JsonNode n = Json.MAPPER.readTree(line);
            if (n == null
                    || !n.isObject()
                    || n.path("podium").asInt(0) != 1
                    || !n.path("type").asText("").equals("step")
                    || n.path("warmup").asBoolean(false)
                    || !n.path("loss").isNumber()) {
                return OptionalDouble.empty();
            }
            double loss = n.path("loss").asDouble();
            return Double.isFinite(loss) ? OptionalDouble.of(loss) : OptionalDouble.empty();
        } catch (Exception e) {
            return OptionalDouble.empty();
        }
    }

    private static StepSample step(JsonNode n) {
        double s = n.path("seconds").asDouble(Double.NaN);
        int k = n.path("samples").asInt(0);
        if (!Double.isFinite(s) || s <= 0 || k <= 0 || k > 1_000_000_000) {
            return null;
        }
        return new StepSample(n.path("step").asLong(0), n.path("warmup").asBoolean(false), k, s, k / s);
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format());
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
            if (n != null && n.isObject() && n.path("podium").asInt(0) == 1) {
                protocolLine(c, n);
            }
        }
        if (bad > 0) {
            c.warn(bad + " protocol lines were not valid JSON");
        }
        stepMetrics(c);
        return c.result();
    }

    private static void protocolLine(Collector c, JsonNode n) {
        switch (n.path("type").asText("")) {
            case "metric" -> metricLine(c, n);
            case "step" -> {
                StepSample st = step(n);
                if (st == null) {
                    c.warn("step line with unusable samples or seconds");
                } else {
                    c.step(st);
                }
            }
            case "info" ->
                n.fields().forEachRemaining(e -> {
                    if (e.getValue().isValueNode()
                            && !e.getKey().equals("podium")
                            && !e.getKey().equals("type")) {
                        c.info(e.getKey(), e.getValue().asText());
                    }
                });
            default -> {}
        }
    }

    private static void metricLine(Collector c, JsonNode n) {
        JsonNode v = n.get("value");
        if (v == null || !v.isNumber()) {
            c.warn("metric line without a numeric value: "
                    + Collector.clean(n.path("name").asText()));
            return;
        }
        String unit = n.path("unit").asText("1");
        String dir = n.path("direction").asText("");
        Direction d = dir.equals("higher")
                ? Direction.HIGHER_IS_BETTER
                : dir.equals("lower")
                        ? Direction.LOWER_IS_BETTER
                        : Collector.guessDirection(n.path("name").asText(), unit);
        c.metric(n.path("name").asText(""), v.asDouble(), unit, d);
        c.work(n.path("name").asText(""), number(n, "flops_per_unit"), number(n, "bytes_per_unit"));
    }

    private static Double number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isNumber() ? v.asDouble() : null;
    }

    /** The throughput's samples (or the throughput itself) and the step times, from the measured steps. */
    private static void stepMetrics(Collector c) {
        List<StepSample> measured =
                c.result().steps().stream().filter(st -> !st.warmup()).toList();
        List<Double> rates = measured.stream().map(StepSample::samplesPerSecond).toList();
        // A workload that reports metrics of its own (inference: images or tokens per second) gets no training
        // throughput.
        boolean reported = !c.result().metrics().isEmpty();
        c.found(THROUGHPUT).ifPresentOrElse(m -> c.metric(m.name(), m.value(), m.unit(), m.direction(), rates), () -> {
            if (!reported) {
                StepLog.throughput(c, measured);
            }
        });
        StepLog.stepTimes(c, measured);
    }
}
