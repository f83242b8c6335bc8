package dev.podium.events.bind;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.TypeFactory;
import dev.podium.events.validate.Violation;
import java.lang.reflect.RecordComponent;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a document's tree against the record it binds to, before Jackson binds it, and takes out what does not fit: an
 * unknown field, a value of the wrong JSON type, a number out of range, a missing or null number or boolean (a primitive
 * has no null for {@code @NotNull} to find). Each is named once, by its path ({@code spec.parameters.epochs},
 * {@code ids[2]}), and what is left binds, so that the record's constraints are checked in the same answer: Jackson
 * alone stops at the first value it cannot bind. A {@link JsonNode} component takes any value (its constraints say which).
 */
public final class DocumentShape {

    /** The root of a document, as a path. */
    public static final String ROOT = "$";

    /**
     * How strict the shape is. {@code scalarsAreText}: a YAML scalar fits a string field as its text ({@code epochs: 1}
     * is {@code "1"}; a YAML author writes {@code 1} meaning the text, where a JSON author who writes {@code 1} chose a
     * number); without it only components marked {@link AnyScalarAsText} take them. {@code handWritten}: the document is
     * a file a person writes, so an unknown field lists the known ones (a typo is the likely cause) and a record or map is
     * called a mapping, as YAML calls it.
     */
    public record Rules(boolean scalarsAreText, boolean handWritten) {}

    private static final PropertyNamingStrategies.NamingBase SNAKE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    private final TypeFactory types;
    private final Rules rules;
    private final List<Violation> problems = new ArrayList<>();

    public DocumentShape(TypeFactory types, Rules rules) {
        this.types = types;
        this.rules = rules;
    }

    public List<Violation> problems() {
        return problems;
    }

    /**
     * Whether {@code node} may stay where it is, as a {@code type}: false when it must be taken out (named as a problem);
     * true when it is of the right kind, its parts that are not taken out of it (each named).
     */
    public boolean fit(JsonNode node, JavaType type, String path) {
        return fit(node, type, path, rules.scalarsAreText());
    }

    private boolean fit(JsonNode node, JavaType type, String path, boolean scalarsAreText) {
        Class<?> c = type.getRawClass();
        boolean kind;
        if (c == JsonNode.class || c == Object.class) {
            return true;
        } else if (c.isRecord()) {
            kind = node.isObject() && fitRecord((ObjectNode) node, c, path);
        } else if (Collection.class.isAssignableFrom(c)) {
            kind = node.isArray() && fitElements((ArrayNode) node, type.getContentType(), path, scalarsAreText);
        } else if (Map.class.isAssignableFrom(c)) {
            kind = node.isObject() && fitValues((ObjectNode) node, type.getContentType(), path, scalarsAreText);
        } else if (c == String.class) {
            kind = node.isTextual() || scalarsAreText && node.isValueNode();
        } else if (c == boolean.class || c == Boolean.class) {
            kind = node.isBoolean();
        } else if (isWhole(c)) {
            if (node.isIntegralNumber() && !fitsIn(node, c)) {
                problems.add(new Violation(path, "is out of range"));
                return false;
            }
            kind = node.isIntegralNumber();
        } else if (c.isPrimitive() || Number.class.isAssignableFrom(c)) {
            kind = node.isNumber();
        } else if (c.isEnum()) {
            kind = node.isTextual()
                    && Arrays.stream(c.getEnumConstants())
                            .anyMatch(e -> e.toString().equals(node.asText()));
        } else {
            return true;
        }
        if (!kind) {
            problems.add(new Violation(path, "must be " + noun(type)));
        }
        return kind;
    }

    /** Always true: the record's parts that do not fit are taken out, the record stays. */
    private boolean fitRecord(ObjectNode node, Class<?> record, String path) {
        Map<String, RecordComponent> components = new LinkedHashMap<>();
        for (RecordComponent rc : record.getRecordComponents()) {
            components.put(SNAKE.translate(rc.getName()), rc);
        }
        for (String name : names(node)) {
            if (!components.containsKey(name)) {
                problems.add(new Violation(child(path, name), unknownField(components.keySet())));
                node.remove(name);
            }
        }
        for (Map.Entry<String, RecordComponent> e : components.entrySet()) {
            JavaType type = types.constructType(e.getValue().getGenericType());
            JsonNode value = node.get(e.getKey());
            boolean scalarsAreText = rules.scalarsAreText() || e.getValue().isAnnotationPresent(AnyScalarAsText.class);
            if (value == null || value.isNull()) {
                if (type.isPrimitive()) {
                    problems.add(new Violation(child(path, e.getKey()), "required: " + noun(type)));
                    node.remove(e.getKey());
                }
            } else if (!fit(value, type, child(path, e.getKey()), scalarsAreText)) {
                node.remove(e.getKey());
            }
        }
        return true;
    }

    private String unknownField(Collection<String> known) {
        return rules.handWritten()
                ? "unknown field (known: "
                        + String.join(", ", known.stream().sorted().toList()) + ")"
                : "unknown field";
    }

    /** Always true: an element that does not fit becomes null (its problem is named; no {@code @NotNull} repeats it). */
    private boolean fitElements(ArrayNode node, JavaType element, String path, boolean scalarsAreText) {
        for (int i = 0; i < node.size(); i++) {
            if (!node.get(i).isNull() && !fit(node.get(i), element, path + "[" + i + "]", scalarsAreText)) {
                node.set(i, NullNode.getInstance());
            }
        }
        return true;
    }

    private boolean fitValues(ObjectNode node, JavaType value, String path, boolean scalarsAreText) {
        for (String name : names(node)) {
            if (!node.get(name).isNull() && !fit(node.get(name), value, child(path, name), scalarsAreText)) {
                node.set(name, NullNode.getInstance());
            }
        }
        return true;
    }

    private static List<String> names(ObjectNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** The path of field {@code name} of the value at {@code path}. */
    public static String child(String path, String name) {
        return path.equals(ROOT) ? name : path + "." + name;
    }

    private static boolean isWhole(Class<?> c) {
        return c == int.class
                || c == long.class
                || c == short.class
                || c == Integer.class
                || c == Long.class
                || c == Short.class
                || c == BigInteger.class;
    }

    private static boolean fitsIn(JsonNode node, Class<?> c) {
        if (c == int.class || c == Integer.class) {
            return node.canConvertToInt();
        }
        if (c == short.class || c == Short.class) {
            return node.canConvertToInt() && node.asInt() >= Short.MIN_VALUE && node.asInt() <= Short.MAX_VALUE;
        }
        return c == BigInteger.class || node.canConvertToLong();
    }

    /** What a value of {@code type} is, in words: the value itself is never repeated, it may be a secret. */
    public String noun(JavaType type) {
        Class<?> c = type.getRawClass();
        if (c == String.class) {
            return "a string";
        }
        if (c == boolean.class || c == Boolean.class) {
            return "true or false";
        }
        if (isWhole(c)) {
            return "a whole number";
        }
        if (c.isPrimitive() || Number.class.isAssignableFrom(c)) {
            return "a number";
        }
        if (c.isEnum()) {
            return "one of " + Arrays.toString(c.getEnumConstants());
        }
        if (Collection.class.isAssignableFrom(c) || c.isArray()) {
            return "a list";
        }
        return rules.handWritten() ? "a mapping" : "an object";
    }
}
