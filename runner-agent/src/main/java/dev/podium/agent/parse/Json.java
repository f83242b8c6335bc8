package dev.podium.agent.parse;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads untrusted JSON with bounded nesting and string length. */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(64).maxStringLength(1024 * 1024).maxNumberLength(64).build());
    }

    private Json() {
    }

    static JsonNode read(String text, Collector c) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            c.warn("not valid JSON: " + firstLine(e.getMessage()));
            return null;
        }
    }

    static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
