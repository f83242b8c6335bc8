package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.model.Direction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MLPerf results: the LoadGen {@code mlperf_log_summary.txt} ("Samples per second: ...", latencies in ns, "Result is :
 * VALID") and training's {@code :::MLLOG {json}} lines (eval_accuracy, tracked_stats throughput, and the time to train
 * from run_start to a successful run_stop).
 */
public final class MlperfParser implements OutputParser {

    private static final Pattern KV = Pattern.compile("^\\s*([A-Za-z0-9 .()%/_-]{1,100}?)\\s*:\\s*(\\S.*?)\\s*$");
    private static final String MLLOG = ":::MLLOG";

    @Override
    public String format() {
        return "mlperf";
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format());
        Long runStart = null;
        Long runStop = null;
        double throughputSum = 0;
        int throughputN = 0;
        for (String raw : Lines.of(text)) {
            String line = Lines.stripAnsi(raw);
            int at = line.indexOf(MLLOG);
            if (at >= 0) {
                JsonNode n;
                try {
                    n = Json.MAPPER.readTree(line.substring(at + MLLOG.length()).strip());
                } catch (Exception e) {
                    c.warn("unreadable :::MLLOG line");
                    continue;
                }
                if (n == null || !n.isObject()) {
                    continue;
                }
                String key = n.path("key").asText("");
                JsonNode v = n.path("value");
                switch (key) {
                    case "run_start" -> runStart = n.path("time_ms").isNumber() ? n.get("time_ms").asLong() : null;
                    case "run_stop" -> {
                        if ("success".equalsIgnoreCase(n.path("metadata").path("status").asText(""))
                                && n.path("time_ms").isNumber()) {
                            runStop = n.get("time_ms").asLong();
                        }
                    }
                    case "eval_accuracy" -> {
                        if (v.isNumber()) {
                            c.metric("eval_accuracy", v.asDouble(), "1", Direction.HIGHER_IS_BETTER);
                        }
                    }
                    case "tracked_stats" -> {
                        if (v.path("throughput").isNumber() && Double.isFinite(v.get("throughput").asDouble())) {
                            throughputSum += v.get("throughput").asDouble();
                            throughputN++;
                        }
                    }
                    case "global_batch_size" -> {
                        if (v.isNumber()) {
                            c.info("global_batch_size", v.asText());
                        }
                    }
                    case "submission_benchmark", "submission_division", "submission_platform" -> c.info(key, v.asText());
                    default -> {
                    }
                }
                continue;
            }
            Matcher m = KV.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String key = m.group(1).strip();
            String value = m.group(2);
            switch (key) {
                case "Scenario", "Mode", "SUT name", "Result is" -> c.info(key.toLowerCase().replace(' ', '_'), value);
                default -> {
                    Double d = Collector.number(value);
                    if (d == null) {
                        continue;
                    }
                    String name = key.toLowerCase().replaceAll("[^a-z0-9.]+", "_").replaceAll("^_+|_+$", "");
                    String unit = name.endsWith("_ns") ? "ns" : name.contains("per_second") ? "1/s" : "1";
                    c.metric(name, d, unit, Collector.guessDirection(name, unit));
                }
            }
        }
        if (runStart != null && runStop != null && runStop >= runStart) {
            c.metric("time_to_train", (runStop - runStart) / 1000.0, "s", Direction.LOWER_IS_BETTER);
        }
        if (throughputN > 0) {
            c.metric("throughput", throughputSum / throughputN, "samples/s", Direction.HIGHER_IS_BETTER);
        }
        return c.result();
    }
}
