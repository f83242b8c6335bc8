package dev.podium.agent.parse;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** Reads untrusted JSON with bounded nesting and string length. */
final class Json {

    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(64)
            .maxStringLength(1024 * 1024)
            .maxNumberLength(64)
            .build();
    static final ObjectMapper MAPPER = new ObjectMapper();
    /**
     * For files written by Python's {@code json.dump}, which writes {@code NaN} and {@code Infinity} as bare words: they
     * are read (and then dropped with a warning by the {@link Collector}) instead of failing the whole file.
     */
    static final ObjectMapper PYTHON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(LIMITS);
        PYTHON.getFactory().setStreamReadConstraints(LIMITS);
    }

    private Json() {}

    /** JSON as Python writes it (NaN, Infinity, -Infinity allowed). */
    static JsonNode readPython(String text, Collector c) {
        return read(PYTHON, text, c);
    }

    /** A JSON object as Python writes it, or null with a warning when the text is not one. */
    static JsonNode pythonObject(String text, Collector c) {
        return object(read(PYTHON, text, c), c);
    }

    /** A JSON object, or null with a warning when the text is not one. */
    static JsonNode object(String text, Collector c) {
        return object(read(MAPPER, text, c), c);
    }

    private static JsonNode object(JsonNode root, Collector c) {
        if (root != null && !root.isObject()) {
            c.warn("expected a JSON object");
            return null;
        }
        return root;
    }

    private static JsonNode read(ObjectMapper mapper, String text, Collector c) {
        try {
            return mapper.readTree(text);
        } catch (Exception e) {
            c.warn("not valid JSON: " + firstLine(e.getMessage()));
            return null;
        }
    }

    static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
