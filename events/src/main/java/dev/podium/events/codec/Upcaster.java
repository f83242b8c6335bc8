package dev.podium.events.codec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.EventType;

/**
 * Turns payloads of older schema versions into the current shape before binding. Old events are never rewritten in the
 * store; they are upcast each time they are read. Version 1 is the only version so far.
 */
final class Upcaster {

    private Upcaster() {}

    static JsonNode upcast(EventType type, int schemaVersion, JsonNode payload) {
        if (!type.knownVersions().contains(schemaVersion)) {
            throw new IllegalArgumentException(type + " has no schema_version " + schemaVersion);
        }
        return payload;
    }
}
