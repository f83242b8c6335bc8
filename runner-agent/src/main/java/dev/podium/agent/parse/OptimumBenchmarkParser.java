package dev.podium.agent.parse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.model.Direction;
import java.util.Iterator;
import java.util.Map;

/**
 * optimum-benchmark's {@code benchmark_report.json} (or {@code benchmark.json}, which nests it under "report"): per target
 * (forward, prefill, decode, per_token, train, ...) a latency block (unit, mean, p50..p99), a throughput and an efficiency
 * (unit, value), memory (unit, max_ram, max_global_vram, ...) and energy (unit, total, ...).
 */
public final class OptimumBenchmarkParser implements OutputParser {

    @Override
    public String format() {
        return "optimum-benchmark";
    }

    @Override
    public ParseResult parse(String text) {
        Collector c = new Collector(format());
        JsonNode root = Json.object(text, c);
        if (root == null) {
            return c.result();
        }
        if (root.path("report").isObject()) {
            root = root.get("report");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> target = it.next();
            JsonNode t = target.getValue();
            if (!t.isObject()) {
                continue;
            }
            String p = target.getKey();
            JsonNode latency = t.path("latency");
            if (latency.isObject()) {
                String unit = latency.path("unit").asText("s");
                for (String stat : new String[] {"mean", "p50", "p90", "p95", "p99", "stdev"}) {
                    if (latency.path(stat).isNumber()) {
                        c.metric(p + ".latency." + stat, latency.get(stat).asDouble(), unit, Direction.LOWER_IS_BETTER);
                    }
                }
            }
            for (String kind : new String[] {"throughput", "efficiency"}) {
                JsonNode n = t.path(kind);
                if (n.path("value").isNumber()) {
                    c.metric(
                            p + "." + kind,
                            n.get("value").asDouble(),
                            n.path("unit").asText("1"),
                            Direction.HIGHER_IS_BETTER);
                }
            }
            JsonNode memory = t.path("memory");
            if (memory.isObject()) {
                String unit = memory.path("unit").asText("MB");
                memory.fields().forEachRemaining(e -> {
                    if (e.getValue().isNumber()) {
                        c.metric(p + ".memory." + e.getKey(), e.getValue().asDouble(), unit, Direction.LOWER_IS_BETTER);
                    }
                });
            }
            JsonNode energy = t.path("energy");
            if (energy.path("total").isNumber()) {
                c.metric(
                        p + ".energy.total",
                        energy.get("total").asDouble(),
                        energy.path("unit").asText("kWh"),
                        Direction.LOWER_IS_BETTER);
            }
        }
        if (c.isEmpty()) {
            c.warn("no latency, throughput, memory or energy block found");
        }
        return c.result();
    }
}
