package dev.podium.query.data;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.model.ComparisonKey;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads a comparison key back from proj_comparison_key.dimensions, which holds either the dimension map
 * ({@link ComparisonKey#dimensions()}, every value a string) or the key record itself (snake_case, with {@code extra}).
 */
public final class Keys {

    private static final Set<String> FIXED = Set.of(
            ComparisonKey.BENCHMARK,
            ComparisonKey.BENCHMARK_VERSION,
            ComparisonKey.SCENARIO,
            ComparisonKey.MODEL,
            ComparisonKey.PRECISION,
            ComparisonKey.BATCH_SIZE,
            ComparisonKey.TOTAL_ACCELERATORS,
            ComparisonKey.INPUT_SIZE);

    private Keys() {}

    public static ComparisonKey parse(String benchmark, JsonNode dims) {
        SortedMap<String, String> extra = new TreeMap<>();
        JsonNode extraNode = dims.get("extra");
        if (extraNode != null && extraNode.isObject()) {
            extraNode.fields().forEachRemaining(e -> extra.put(e.getKey(), text(e.getValue())));
        }
        Iterator<Map.Entry<String, JsonNode>> fields = dims.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            if (!FIXED.contains(e.getKey()) && !"extra".equals(e.getKey()) && text(e.getValue()) != null) {
                extra.put(e.getKey(), text(e.getValue()));
            }
        }
        String b = text(dims.get(ComparisonKey.BENCHMARK));
        return new ComparisonKey(
                b == null ? benchmark : b,
                text(dims.get(ComparisonKey.BENCHMARK_VERSION)),
                text(dims.get(ComparisonKey.SCENARIO)),
                text(dims.get(ComparisonKey.MODEL)),
                text(dims.get(ComparisonKey.PRECISION)),
                integer(dims.get(ComparisonKey.BATCH_SIZE)),
                integer(dims.get(ComparisonKey.TOTAL_ACCELERATORS)),
                integer(dims.get(ComparisonKey.INPUT_SIZE)),
                extra);
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    private static Integer integer(JsonNode n) {
        String t = text(n);
        if (t == null || t.isBlank() || "-".equals(t)) {
            return null;
        }
        try {
            return Integer.valueOf(t.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
