package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.model.Direction;
import java.util.regex.Pattern;

/**
 * MLPerf results: the LoadGen {@code mlperf_log_summary.txt} ("Samples per second: ...", latencies in ns, "Result is :
 * VALID") and training's {@code :::MLLOG {json}} lines (eval_accuracy, tracked_stats throughput, and the time to train
 * from run_start to a successful run_stop).
 */
public final class MlperfParser implements OutputParser {

    /**
     * A LoadGen key: checked on the text before a line's first colon, never searched for, so that a line costs its length
     * whatever it holds (a pattern over the whole line backtracked quadratically on long lines without a colon).
     */
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9 .()%/_-]{1,100}");

    private static final String MLLOG = ":::MLLOG";

    @Override
    public String format() {
        return "mlperf";
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format());
        Mllog mllog = new Mllog();
        for (String raw : Lines.of(text)) {
            String line = Lines.stripAnsi(raw);
            int at = line.indexOf(MLLOG);
            if (at >= 0) {
                mllog.line(c, line.substring(at + MLLOG.length()).strip());
                continue;
            }
            int colon = line.indexOf(':');
            if (colon > 0) {
                String key = line.substring(0, colon).strip();
                String value = line.substring(colon + 1).strip();
                if (!value.isEmpty() && KEY.matcher(key).matches()) {
                    loadgenEntry(c, key, value);
                }
            }
        }
        mllog.finish(c);
        return c.result();
    }

    /** A {@code key : value} line of a LoadGen summary: the run's description, else a number. */
    private static void loadgenEntry(Collector c, String key, String value) {
        switch (key) {
            case "Scenario", "Mode", "SUT name", "Result is" ->
                c.info(key.toLowerCase().replace(' ', '_'), value);
            default -> {
                Double d = Collector.number(value);
                if (d != null) {
                    String name =
                            key.toLowerCase().replaceAll("[^a-z0-9.]+", "_").replaceAll("^_+|_+$", "");
                    String unit = name.endsWith("_ns") ? "ns" : name.contains("per_second") ? "1/s" : "1";
                    c.metric(name, d, unit, Collector.guessDirection(name, unit));
                }
            }
        }
    }

    /** The {@code :::MLLOG} lines of a training run: time to train from run_start to a successful run_stop, throughput. */
    private static final class Mllog {
        private Long runStart;
        private Long runStop;
        private double throughputSum;
        private int throughputN;

        void line(Collector c, String json) {
            JsonNode n;
            try {
                n = Json.MAPPER.readTree(json);
            } catch (Exception e) {
                c.warn("unreadable :::MLLOG line");
                return;
            }
            if (n != null && n.isObject()) {
                entry(c, n.path("key").asText(""), n, n.path("value"));
            }
        }

        private void entry(Collector c, String key, JsonNode n, JsonNode v) {
            switch (key) {
                case "run_start" ->
                    runStart = n.path("time_ms").isNumber() ? n.get("time_ms").asLong() : null;
                case "run_stop" -> {
                    if ("success"
                                    .equalsIgnoreCase(
                                            n.path("metadata").path("status").asText(""))
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
                    if (v.path("throughput").isNumber()
                            && Double.isFinite(v.get("throughput").asDouble())) {
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
                default -> {}
            }
        }

        void finish(Collector c) {
            if (runStart != null && runStop != null && runStop >= runStart) {
                c.metric("time_to_train", (runStop - runStart) / 1000.0, "s", Direction.LOWER_IS_BETTER);
            }
            if (throughputN > 0) {
                c.metric("throughput", throughputSum / throughputN, "samples/s", Direction.HIGHER_IS_BETTER);
            }
        }
    }
}
