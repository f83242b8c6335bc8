package dev.podium.ingest.projection;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.events.codec.EventCodec;

/** jsonb values of read models, in the same snake_case form as the events. */
final class Json {

    private static final ObjectMapper MAPPER = EventCodec.newMapper();

    private Json() {}

    static String of(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** An event or value record as a JSON object, to edit before writing it. */
    static ObjectNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }
}
