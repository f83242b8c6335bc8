package dev.podium.events.validate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.podium.events.EventType;
import dev.podium.events.StreamId;
import java.lang.reflect.Type;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Checks an untrusted envelope against the contract and names every violation: missing fields, wrong types, unknown type
 * or schema_version, a stream id that does not fit the type, non-finite or negative numbers where they are not allowed,
 * {@code \u0000} in strings, strings, arrays and maps over their limits, and {@code occurred_at} more than a day ahead.
 */
public final class EnvelopeValidator {

    /** The envelope's fields in JSON. */
    public static final List<String> ENVELOPE_FIELDS =
            List.of("event_id", "type", "schema_version", "stream_id", "seq", "agent_id", "occurred_at", "payload");

    public List<Violation> validate(JsonNode root, Instant now) {
        List<Violation> out = new ArrayList<>();
        if (root == null || !root.isObject()) {
            out.add(new Violation("$", "must be a JSON object"));
            return out;
        }
        checkUnknownFields(root, ENVELOPE_FIELDS, "", out);
        uuid(root, "event_id", out);
        Optional<String> typeName = string(root, "type", true, out);
        Optional<EventType> type = typeName.flatMap(name -> {
            Optional<EventType> t = EventType.byName(name);
            if (t.isEmpty()) {
                out.add(new Violation("type", "unknown event type '" + clip(name) + "'"));
            }
            return t;
        });
        JsonNode version = root.get("schema_version");
        if (missing(version)) {
            out.add(new Violation("schema_version", "missing"));
        } else if (!version.isIntegralNumber() || !version.canConvertToInt()) {
            out.add(new Violation("schema_version", "must be an integer"));
        } else if (type.isPresent() && !type.get().knownVersions().contains(version.asInt())) {
            out.add(new Violation(
                    "schema_version", "unknown schema_version " + version.asText() + " for " + type.get()));
        }
        Optional<String> stream = string(root, "stream_id", true, out);
        stream.ifPresent(s -> checkStream(s, type, root, out));
        JsonNode seq = root.get("seq");
        if (missing(seq)) {
            out.add(new Violation("seq", "missing"));
        } else if (!seq.isIntegralNumber() || !seq.canConvertToLong()) {
            out.add(new Violation("seq", "must be an integer"));
        } else if (seq.asLong() < 1) {
            out.add(new Violation("seq", "must be 1 or more, was " + seq.asLong()));
        }
        checkOccurredAt(root, now, out);
        JsonNode payload = root.get("payload");
        if (missing(payload)) {
            out.add(new Violation("payload", "missing"));
        } else if (!payload.isObject()) {
            out.add(new Violation("payload", "must be an object"));
        } else if (type.isPresent()) {
            checkRecord(payload, type.get().payloadType(), "payload", out);
        }
        return out;
    }

    /**
     * Checks a record of the contract on its own, by the rules it has inside an envelope: a job spec a command is about to
     * put in a JobRequested, say. Fields are named from the record ({@code parameters.epochs}); {@code $} is the record.
     */
    public List<Violation> validateRecord(JsonNode node, Class<?> recordType) {
        List<Violation> out = new ArrayList<>();
        if (node == null || !node.isObject()) {
            out.add(new Violation("$", "must be a JSON object"));
            return out;
        }
        checkRecord(node, recordType, "", out);
        return out.stream()
                .map(v -> new Violation(v.field().substring(1), v.reason()))
                .toList();
    }

    private void checkStream(String stream, Optional<EventType> type, JsonNode root, List<Violation> out) {
        Optional<StreamId> id = StreamId.parse(stream);
        if (id.isEmpty()) {
            boolean upperCase = StreamId.parse(stream.toLowerCase(Locale.ROOT)).isPresent();
            out.add(new Violation(
                    "stream_id",
                    "'" + clip(stream) + "' is not a valid stream id"
                            + (upperCase ? ": its UUID must be in lower case" : "")));
            return;
        }
        Optional<String> given = root.has("agent_id") && !root.get("agent_id").isNull()
                ? string(root, "agent_id", true, out)
                : Optional.empty();
        if (given.isPresent() && !StreamId.isValidAgentId(given.get())) {
            out.add(new Violation(
                    "agent_id",
                    "'" + clip(given.get()) + "' is not a valid agent id (a letter or digit,"
                            + " then letters, digits, '.', '_', '-'; 128 characters at most)"));
        }
        Optional<String> agent = given.filter(StreamId::isValidAgentId);
        if (type.isEmpty()) {
            return;
        }
        var expected = type.get().streamKind();
        if (id.get().kind() != expected) {
            out.add(new Violation(
                    "stream_id",
                    type.get() + " belongs on a " + expected.prefix() + " stream, not '" + clip(stream) + "'"));
        }
        if (expected.writtenByAgent() && agent.isEmpty()) {
            out.add(new Violation("agent_id", "missing: required on " + expected.prefix() + " streams"));
        }
        id.get()
                .agentId()
                .ifPresent(owner -> agent.ifPresent(a -> {
                    if (!owner.equals(a)) {
                        out.add(new Violation(
                                "agent_id", "'" + clip(a) + "' does not own stream '" + clip(stream) + "'"));
                    }
                }));
    }

    private void checkOccurredAt(JsonNode root, Instant now, List<Violation> out) {
        string(root, "occurred_at", true, out).ifPresent(s -> {
            try {
                Instant at = Instant.parse(s);
                if (at.isAfter(now.plus(Limits.MAX_CLOCK_AHEAD))) {
                    out.add(new Violation(
                            "occurred_at", s + " is more than a day ahead of ingest's clock (" + now + ")"));
                }
            } catch (DateTimeParseException e) {
                out.add(new Violation("occurred_at", "must be an ISO-8601 instant such as 2026-01-31T12:00:00Z"));
            }
        });
    }

    private void checkRecord(JsonNode node, Class<?> recordType, String path, List<Violation> out) {
        List<RecordRules.Field> fields = RecordRules.fields(recordType);
        checkUnknownFields(node, RecordRules.jsonNames(recordType), path + ".", out);
        for (RecordRules.Field f : fields) {
            String p = path + "." + f.jsonName();
            JsonNode value = node.get(f.jsonName());
            if (missing(value)) {
                if (f.required()) {
                    out.add(new Violation(p, "missing"));
                }
                continue;
            }
            checkValue(value, f.type(), f, p, out);
        }
    }

    private void checkValue(JsonNode value, Type type, RecordRules.Field f, String path, List<Violation> out) {
        Class<?> c = RecordRules.rawClass(type);
        if (c == String.class) {
            if (!value.isTextual()) {
                out.add(new Violation(path, "must be a string"));
            } else {
                checkString(value.asText(), f.text() ? Limits.MAX_TEXT_CHARS : Limits.MAX_STRING_CHARS, path, out);
            }
        } else if (c == int.class || c == Integer.class || c == long.class || c == Long.class) {
            if (!value.isIntegralNumber()
                    || !value.canConvertToLong()
                    || ((c == int.class || c == Integer.class) && !value.canConvertToInt())) {
                out.add(new Violation(path, "must be an integer"));
            } else if (f.nonNegative() && value.asLong() < 0) {
                out.add(new Violation(path, "must not be negative, was " + value.asLong()));
            }
        } else if (c == double.class || c == Double.class) {
            checkNumber(value, f.nonNegative(), path, out);
        } else if (c == boolean.class || c == Boolean.class) {
            if (!value.isBoolean()) {
                out.add(new Violation(path, "must be true or false"));
            }
        } else if (c == UUID.class) {
            if (!value.isTextual() || !isUuid(value.asText())) {
                out.add(new Violation(path, "must be a UUID"));
            }
        } else if (c == Instant.class) {
            if (!value.isTextual()) {
                out.add(new Violation(path, "must be an ISO-8601 instant"));
            } else {
                try {
                    Instant.parse(value.asText());
                } catch (DateTimeParseException e) {
                    out.add(new Violation(path, "must be an ISO-8601 instant"));
                }
            }
        } else if (c.isEnum()) {
            checkEnum(value, c, path, out);
        } else if (List.class.isAssignableFrom(c)) {
            checkList(value, type, f, path, out);
        } else if (RecordRules.isMap(c)) {
            checkMap(value, type, f, path, out);
        } else if (c.isRecord()) {
            if (!value.isObject()) {
                out.add(new Violation(path, "must be an object"));
            } else {
                checkRecord(value, c, path, out);
            }
        } else if (RecordRules.typeProperty(c).isPresent()) {
            checkPolymorphic(value, c, path, out);
        } else {
            throw new IllegalStateException("no rule for " + c + " at " + path);
        }
    }

    private void checkNumber(JsonNode value, boolean nonNegative, String path, List<Violation> out) {
        if (!value.isNumber()) {
            out.add(new Violation(path, "must be a number"));
            return;
        }
        double d = value.asDouble();
        if (!Double.isFinite(d)) {
            out.add(new Violation(path, "must be finite, was " + clip(value.asText())));
        } else if (nonNegative && d < 0) {
            out.add(new Violation(path, "must not be negative, was " + d));
        } else if (Math.abs(d) > Limits.MAX_NUMBER_MAGNITUDE) {
            out.add(new Violation(path, "must be at most " + Limits.MAX_NUMBER_MAGNITUDE + " in magnitude, was " + d));
        }
    }

    private void checkEnum(JsonNode value, Class<?> c, String path, List<Violation> out) {
        if (!value.isTextual()) {
            out.add(new Violation(path, "must be a string"));
            return;
        }
        for (Object constant : c.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(value.asText())) {
                return;
            }
        }
        out.add(new Violation(
                path, "'" + clip(value.asText()) + "' is not one of " + Arrays.toString(c.getEnumConstants())));
    }

    private void checkList(JsonNode value, Type type, RecordRules.Field f, String path, List<Violation> out) {
        if (!value.isArray()) {
            out.add(new Violation(path, "must be an array"));
            return;
        }
        if (value.size() > Limits.MAX_ARRAY_ITEMS) {
            out.add(new Violation(path, "has " + value.size() + " items, over the limit of " + Limits.MAX_ARRAY_ITEMS));
            return;
        }
        Type element = RecordRules.typeArgument(type, 0);
        for (int i = 0; i < value.size(); i++) {
            JsonNode item = value.get(i);
            if (item == null || item.isNull()) {
                out.add(new Violation(path + "[" + i + "]", "must not be null"));
            } else {
                checkValue(item, element, f, path + "[" + i + "]", out);
            }
        }
    }

    private void checkMap(JsonNode value, Type type, RecordRules.Field f, String path, List<Violation> out) {
        if (!value.isObject()) {
            out.add(new Violation(path, "must be an object"));
            return;
        }
        if (value.size() > Limits.MAX_MAP_ENTRIES) {
            out.add(new Violation(
                    path, "has " + value.size() + " entries, over the limit of " + Limits.MAX_MAP_ENTRIES));
            return;
        }
        Type valueType = RecordRules.typeArgument(type, 1);
        Iterator<Map.Entry<String, JsonNode>> it = value.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String p = path + "." + clip(e.getKey());
            checkString(e.getKey(), Limits.MAX_STRING_CHARS, p + " (name)", out);
            if (e.getValue() == null || e.getValue().isNull()) {
                out.add(new Violation(p, "must not be null"));
            } else {
                checkValue(e.getValue(), valueType, f, p, out);
            }
        }
    }

    private void checkPolymorphic(JsonNode value, Class<?> c, String path, List<Violation> out) {
        if (!value.isObject()) {
            out.add(new Violation(path, "must be an object"));
            return;
        }
        String property = RecordRules.typeProperty(c).orElseThrow();
        JsonNode kind = value.get(property);
        Map<String, Class<?>> subtypes = RecordRules.subtypes(c);
        if (missing(kind) || !kind.isTextual()) {
            out.add(new Violation(path + "." + property, "missing: one of " + subtypes.keySet()));
        } else if (!subtypes.containsKey(kind.asText())) {
            out.add(new Violation(
                    path + "." + property, "'" + clip(kind.asText()) + "' is not one of " + subtypes.keySet()));
        } else {
            checkRecord(value, subtypes.get(kind.asText()), path, out);
        }
    }

    /**
     * Fields the contract does not name are ignored when binding, but they may still reach storage as raw JSON, so the
     * rules that protect storage apply to them too: no {@code \u0000} in names or strings, no string over the text limit.
     */
    private static void checkUnknownFields(JsonNode node, List<String> known, String prefix, List<Violation> out) {
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!known.contains(e.getKey())) {
                String p = prefix + clip(e.getKey());
                checkString(e.getKey(), Limits.MAX_STRING_CHARS, p + " (name)", out);
                checkAnyValue(e.getValue(), p, out);
            }
        }
    }

    private static void checkAnyValue(JsonNode value, String path, List<Violation> out) {
        if (value.isTextual()) {
            checkString(value.asText(), Limits.MAX_TEXT_CHARS, path, out);
        } else if (value.isNumber() && !Double.isFinite(value.asDouble())) {
            out.add(new Violation(path, "must be finite, was " + clip(value.asText())));
        } else if (value.isArray()) {
            if (value.size() > Limits.MAX_ARRAY_ITEMS) {
                out.add(new Violation(
                        path, "has " + value.size() + " items, over the limit of " + Limits.MAX_ARRAY_ITEMS));
                return;
            }
            for (int i = 0; i < value.size(); i++) {
                checkAnyValue(value.get(i), path + "[" + i + "]", out);
            }
        } else if (value.isObject()) {
            if (value.size() > Limits.MAX_MAP_ENTRIES) {
                out.add(new Violation(
                        path, "has " + value.size() + " entries, over the limit of " + Limits.MAX_MAP_ENTRIES));
                return;
            }
            checkUnknownFields(value, List.of(), path + ".", out);
        }
    }

    private static void checkString(String s, int limit, String path, List<Violation> out) {
        if (s.indexOf('\u0000') >= 0) {
            out.add(new Violation(path, "contains the NUL character \\u0000"));
        }
        if (s.length() > limit) {
            out.add(new Violation(path, "has " + s.length() + " characters, over the limit of " + limit));
        }
    }

    private static Optional<String> string(JsonNode root, String name, boolean required, List<Violation> out) {
        JsonNode v = root.get(name);
        if (missing(v)) {
            if (required) {
                out.add(new Violation(name, "missing"));
            }
            return Optional.empty();
        }
        if (!v.isTextual()) {
            out.add(new Violation(name, "must be a string"));
            return Optional.empty();
        }
        int before = out.size();
        checkString(v.asText(), Limits.MAX_STRING_CHARS, name, out);
        return out.size() == before ? Optional.of(v.asText()) : Optional.empty();
    }

    private static Optional<UUID> uuid(JsonNode root, String name, List<Violation> out) {
        return string(root, name, true, out).flatMap(s -> {
            if (isUuid(s)) {
                return Optional.of(UUID.fromString(s));
            }
            out.add(new Violation(name, "must be a UUID"));
            return Optional.empty();
        });
    }

    private static boolean isUuid(String s) {
        try {
            return s.length() == 36 && UUID.fromString(s).toString().equalsIgnoreCase(s);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean missing(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode();
    }

    private static String clip(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }
}
