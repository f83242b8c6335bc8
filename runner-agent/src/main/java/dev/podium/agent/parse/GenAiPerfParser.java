package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.model.Direction;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * NVIDIA genai-perf's {@code profile_export_genai_perf.json} and AIPerf's {@code profile_export_aiperf.json} (AIPerf keeps
 * genai-perf's layout): one object per metric with its {@code unit} and {@code avg}, {@code p1}..{@code p99},
 * {@code min}, {@code max}, {@code std}, and the run's {@code input_config}. Rates ({@code .../sec}) give their average
 * ({@code output_token_throughput} first, {@code request_throughput}, {@code output_token_throughput_per_user} with its
 * p50) higher-is-better; times give mean, p50, p90, p95, p99 and std in ms under the names the serving parsers use
 * ({@code ttft_p99_ms}, {@code itl_p50_ms}, {@code e2e_latency_p90_ms}) lower-is-better; lengths and counts, the model
 * and the concurrency ({@code input_config.concurrency}, in AIPerf {@code input_config.loadgen.concurrency}) are facts.
 */
public final class GenAiPerfParser implements OutputParser {

    public static final String FORMAT = "genai-perf";
    private static final Map<String, String> TIMES = Map.of(
            "time_to_first_token",
            "ttft",
            "time_to_second_token",
            "ttst",
            "inter_token_latency",
            "itl",
            "request_latency",
            "e2e_latency",
            "inter_chunk_latency",
            "icl");
    private static final String[] TIME_STATS = {"avg", "p50", "p90", "p95", "p99", "std"};

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format());
        JsonNode root = Json.pythonObject(text, c);
        if (root == null) {
            return c.result();
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode m = e.getValue();
            if (m.isObject() && m.path("unit").isTextual() && m.has("avg")) {
                metric(c, e.getKey(), m);
            }
        }
        JsonNode config = root.path("input_config");
        JsonNode concurrency = config.path("concurrency").isNumber()
                ? config.get("concurrency")
                : config.path("loadgen").path("concurrency");
        if (concurrency.isNumber()) {
            c.info("concurrency", concurrency.asText());
        }
        JsonNode model = config.path("model").isArray()
                ? config.get("model")
                : config.path("endpoint").path("model_names");
        if (model.isArray() && !model.isEmpty() && model.get(0).isTextual()) {
            c.info("model", model.get(0).asText());
        }
        if (c.isEmpty()) {
            c.warn("no genai-perf or AIPerf metric found");
        }
        c.lead(ServingBenchmarkParser.PRIMARY);
        return c.result();
    }

    private static void metric(Collector c, String key, JsonNode m) {
        String unit = m.get("unit").asText().strip().toLowerCase(Locale.ROOT);
        double toMs = switch (unit) {
            case "ms" -> 1;
            case "ns" -> 1e-6;
            case "us" -> 1e-3;
            case "s", "sec" -> 1e3;
            default -> Double.NaN;
        };
        if (!Double.isNaN(toMs)) {
            String what = TIMES.getOrDefault(key, key);
            if (key.equals("benchmark_duration")) {
                value(c, key, m, "avg").ifPresent(v -> c.metric(key, v * toMs / 1e3, "s", Direction.LOWER_IS_BETTER));
                return;
            }
            for (String stat : TIME_STATS) {
                value(c, key, m, stat)
                        .ifPresent(v -> c.metric(
                                ServingBenchmarkParser.latencyName(what, stat.equals("avg") ? "mean" : stat),
                                v * toMs,
                                "ms",
                                Direction.LOWER_IS_BETTER));
            }
            return;
        }
        if (unit.contains("/sec")) {
            String u = unit.replace("requests/sec", "req/s").replace("/sec", "/s");
            value(c, key, m, "avg").ifPresent(v -> c.metric(key, v, u, Direction.HIGHER_IS_BETTER));
            if (m.has("p50")) {
                value(c, key, m, "p50").ifPresent(v -> c.metric(key + "_p50", v, u, Direction.HIGHER_IS_BETTER));
            }
            return;
        }
        value(c, key, m, "avg").ifPresent(v -> c.info(key, Double.isFinite(v) ? String.valueOf(v) : null));
    }

    private static OptionalDouble value(Collector c, String key, JsonNode m, String stat) {
        JsonNode v = m.get(stat);
        if (v == null || v.isNull()) {
            return OptionalDouble.empty();
        }
        if (!v.isNumber()) {
            c.warn("unreadable " + stat + " of " + Collector.clean(key));
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(v.asDouble());
    }
}
