package dev.podium.events.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.podium.events.EventType;
import dev.podium.events.StreamKind;
import dev.podium.events.validate.Limits;
import dev.podium.events.validate.RecordRules;
import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes one JSON Schema (draft 2020-12) per event type, for producers in other languages, from the same
 * {@link RecordRules} the validator walks: required fields, JSON types, enums, length and size limits, {@code minimum 0}
 * for non-negative numbers, a pattern that excludes {@code \u0000}, and a {@code oneOf} for polymorphic values.
 *
 * <p>The files are committed under {@value #RESOURCE_DIR}; a test fails when they differ from what this class writes.
 * Regenerate them after changing an event record with
 * {@code mvn -o -q -pl events test -Dtest=SchemaFilesTest -Dpodium.schemas.write=true}, or by running {@link #main}
 * with the target folder as argument.
 *
 * <p>What a schema cannot say and ingest still checks: the 1 MiB record limit, the nesting depth, duplicate keys,
 * non-finite numbers, that {@code agent_id} owns an agent stream, and {@code occurred_at} at most a day ahead.
 */
public final class SchemaWriter {

    /** Where the schema files live, relative to the module and as a class-path resource. */
    public static final String RESOURCE_DIR = "schemas/v1";

    public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";
    public static final String ID_BASE = "https://podium.dev/schemas/v1/";

    static final String NO_NUL = "^[^\\u0000]*$";
    static final String UUID_PATTERN = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
    static final String AGENT_ID_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,127}";
    static final String SLUG_PATTERN = "[a-z0-9][a-z0-9._-]{0,127}";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SchemaWriter() {}

    /** The file name of a type's schema, e.g. {@code RunStarted.schema.json}. */
    public static String fileName(EventType type) {
        return type.name() + ".schema.json";
    }

    /** The schema of one event type: the envelope, with the payload and every record it uses under {@code $defs}. */
    public static ObjectNode schema(EventType type) {
        ObjectNode defs = JSON.objectNode();
        ObjectNode root = JSON.objectNode();
        root.put("$schema", DIALECT);
        root.put("$id", ID_BASE + fileName(type));
        root.put("title", type.name());
        root.put(
                "description",
                "A Podium v1 " + type.name() + " event on a "
                        + type.streamKind().prefix()
                        + " stream. Ingest also rejects records over " + Limits.MAX_RECORD_BYTES
                        + " bytes, nesting deeper than "
                        + Limits.MAX_NESTING_DEPTH
                        + ", duplicate keys, non-finite numbers, an agent_id that does not own an"
                        + " agent stream, and occurred_at more than " + Limits.MAX_CLOCK_AHEAD.toHours()
                        + " hours ahead of its clock.");
        root.put("type", "object");
        ArrayNode required = root.putArray("required");
        for (String f : List.of("event_id", "type", "schema_version", "stream_id", "seq")) {
            required.add(f);
        }
        if (type.streamKind().writtenByAgent()) {
            required.add("agent_id");
        }
        required.add("occurred_at");
        required.add("payload");

        ObjectNode props = root.putObject("properties");
        props.set("event_id", uuid());
        props.putObject("type").put("const", type.name());
        ArrayNode versions =
                props.putObject("schema_version").put("type", "integer").putArray("enum");
        type.knownVersions().stream().sorted().forEach(versions::add);
        ObjectNode stream = string(Limits.MAX_STRING_CHARS);
        stream.put("pattern", "^" + streamPattern(type.streamKind()) + "$");
        props.set("stream_id", stream);
        props.putObject("seq").put("type", "integer").put("minimum", 1).put("maximum", Long.MAX_VALUE);
        ObjectNode agent = string(Limits.MAX_STRING_CHARS);
        agent.put("pattern", "^" + AGENT_ID_PATTERN + "$");
        agent.put(
                "description",
                type.streamKind() == StreamKind.AGENT
                        ? "The writer; must be the agent named in stream_id."
                        : type.streamKind().writtenByAgent()
                                ? "The writer of the stream."
                                : "Absent on command-side streams.");
        props.set("agent_id", agent);
        ObjectNode at = string(Limits.MAX_STRING_CHARS);
        at.put("format", "date-time");
        at.put("description", "The writer's clock, informational; rejected when more than a day ahead of ingest's.");
        props.set("occurred_at", at);
        props.set("payload", ref(type.payloadType(), defs));

        root.set("$defs", sortedDefs(defs));
        return root;
    }

    /** The schema as the committed file holds it: two-space indentation, {@code \n} line ends, a final newline. */
    public static String render(EventType type) {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        try {
            return MAPPER.writer(printer).writeValueAsString(schema(type)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the schema of " + type, e);
        }
    }

    /** Writes every type's schema into {@code dir}, replacing what is there. */
    public static void writeAll(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (EventType type : EventType.values()) {
            Files.writeString(dir.resolve(fileName(type)), render(type), StandardCharsets.UTF_8);
        }
    }

    /** Writes the schema files into the folder given as argument (default: this module's resources). */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "events/src/main/resources/" + RESOURCE_DIR);
        writeAll(dir);
        System.out.println("wrote " + EventType.values().length + " schema files to " + dir.toAbsolutePath());
    }

    static String streamPattern(StreamKind kind) {
        return switch (kind) {
            case AGENT -> "agent/" + AGENT_ID_PATTERN + "/" + UUID_PATTERN;
            case PUBLISHED -> "published/" + SLUG_PATTERN;
            default -> kind.prefix() + "/" + UUID_PATTERN;
        };
    }

    // ---- records and values ----

    private static ObjectNode ref(Class<?> c, ObjectNode defs) {
        String name = defName(c);
        if (!defs.has(name)) {
            defs.putObject(name); // placeholder against recursion
            defs.set(name, RecordRules.typeProperty(c).isPresent() ? polymorphic(c, defs) : record(c, defs, null));
        }
        return JSON.objectNode().put("$ref", "#/$defs/" + name);
    }

    private static ObjectNode record(Class<?> c, ObjectNode defs, Map.Entry<String, String> discriminator) {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        ArrayNode required = schema.putArray("required");
        ObjectNode props = JSON.objectNode();
        if (discriminator != null) {
            required.add(discriminator.getKey());
            props.putObject(discriminator.getKey()).put("const", discriminator.getValue());
        }
        for (RecordRules.Field f : RecordRules.fields(c)) {
            if (f.required()) {
                required.add(f.jsonName());
            }
            ObjectNode value = value(f.type(), f, defs);
            props.set(f.jsonName(), f.required() ? value : nullable(value));
        }
        if (required.isEmpty()) {
            schema.remove("required");
        }
        schema.set("properties", props);
        return schema;
    }

    private static ObjectNode polymorphic(Class<?> c, ObjectNode defs) {
        String property = RecordRules.typeProperty(c).orElseThrow();
        ObjectNode schema = JSON.objectNode();
        schema.put("description", "One of the kinds named by \"" + property + "\".");
        ArrayNode oneOf = schema.putArray("oneOf");
        for (Map.Entry<String, Class<?>> sub : RecordRules.subtypes(c).entrySet()) {
            String name = defName(sub.getValue());
            defs.set(name, record(sub.getValue(), defs, Map.entry(property, sub.getKey())));
            oneOf.addObject().put("$ref", "#/$defs/" + name);
        }
        return schema;
    }

    private static ObjectNode value(Type type, RecordRules.Field f, ObjectNode defs) {
        Class<?> c = RecordRules.rawClass(type);
        if (c == String.class) {
            return string(f.text() ? Limits.MAX_TEXT_CHARS : Limits.MAX_STRING_CHARS);
        }
        if (c == int.class || c == Integer.class) {
            return integer(f.nonNegative() ? 0 : Integer.MIN_VALUE, Integer.MAX_VALUE);
        }
        if (c == long.class || c == Long.class) {
            return integer(f.nonNegative() ? 0 : Long.MIN_VALUE, Long.MAX_VALUE);
        }
        if (c == double.class || c == Double.class) {
            ObjectNode n = JSON.objectNode().put("type", "number");
            n.put("minimum", f.nonNegative() ? 0 : -Limits.MAX_NUMBER_MAGNITUDE);
            n.put("maximum", Limits.MAX_NUMBER_MAGNITUDE);
            return n;
        }
        if (c == boolean.class || c == Boolean.class) {
            return JSON.objectNode().put("type", "boolean");
        }
        if (c == UUID.class) {
            return uuid();
        }
        if (c == Instant.class) {
            return string(Limits.MAX_STRING_CHARS).put("format", "date-time");
        }
        if (c.isEnum()) {
            ObjectNode n = JSON.objectNode().put("type", "string");
            ArrayNode values = n.putArray("enum");
            for (Object constant : c.getEnumConstants()) {
                values.add(((Enum<?>) constant).name());
            }
            return n;
        }
        if (List.class.isAssignableFrom(c)) {
            ObjectNode n = JSON.objectNode().put("type", "array").put("maxItems", Limits.MAX_ARRAY_ITEMS);
            n.set("items", value(RecordRules.typeArgument(type, 0), f, defs));
            return n;
        }
        if (RecordRules.isMap(c)) {
            ObjectNode n = JSON.objectNode().put("type", "object").put("maxProperties", Limits.MAX_MAP_ENTRIES);
            n.set("propertyNames", string(Limits.MAX_STRING_CHARS).without("type"));
            n.set("additionalProperties", value(RecordRules.typeArgument(type, 1), f, defs));
            return n;
        }
        if (c.isRecord() || RecordRules.typeProperty(c).isPresent()) {
            return ref(c, defs);
        }
        throw new IllegalStateException("no schema rule for " + c);
    }

    private static ObjectNode nullable(ObjectNode value) {
        if (value.has("type") && value.get("type").isTextual()) {
            ObjectNode copy = value.deepCopy();
            copy.putArray("type").add(value.get("type").asText()).add("null");
            return copy;
        }
        ObjectNode n = JSON.objectNode();
        n.putArray("anyOf").add(value).addObject().put("type", "null");
        return n;
    }

    private static ObjectNode string(int maxLength) {
        return JSON.objectNode()
                .put("type", "string")
                .put("maxLength", maxLength)
                .put("pattern", NO_NUL);
    }

    private static ObjectNode integer(long min, long max) {
        return JSON.objectNode().put("type", "integer").put("minimum", min).put("maximum", max);
    }

    private static ObjectNode uuid() {
        return JSON.objectNode().put("type", "string").put("format", "uuid").put("pattern", "^" + UUID_PATTERN + "$");
    }

    private static String defName(Class<?> c) {
        String n = c.getName();
        return n.substring(n.lastIndexOf('.') + 1).replace("$", "");
    }

    private static ObjectNode sortedDefs(ObjectNode defs) {
        ObjectNode sorted = JSON.objectNode();
        List<String> names = new ArrayList<>();
        defs.fieldNames().forEachRemaining(names::add);
        names.stream().sorted().forEach(n -> sorted.set(n, defs.get(n)));
        return sorted;
    }
}
