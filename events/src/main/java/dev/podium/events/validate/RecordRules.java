package dev.podium.events.validate;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the rules of the contract from the event records themselves: a component is required unless {@link Nullable},
 * its JSON type follows from its Java type, and {@link Text} and {@link NonNegative} add limits. The validator and the
 * JSON Schema writer both walk this, so the schema files cannot drift from the code.
 */
public final class RecordRules {

    private static final PropertyNamingStrategies.NamingBase SNAKE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    private RecordRules() {}

    /** One component of a record as it appears in JSON. */
    public record Field(String jsonName, Type type, boolean required, boolean text, boolean nonNegative) {}

    /** Read once per record type: reflection on components and annotations is costly, and records never change. */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> recordType) {
            return Arrays.stream(recordType.getRecordComponents())
                    .map(RecordRules::field)
                    .toList();
        }
    };

    private static final ClassValue<List<String>> JSON_NAMES = new ClassValue<>() {
        @Override
        protected List<String> computeValue(Class<?> recordType) {
            return FIELDS.get(recordType).stream().map(Field::jsonName).toList();
        }
    };

    public static List<Field> fields(Class<?> recordType) {
        return FIELDS.get(recordType);
    }

    /** The JSON names of a record's components, in order. */
    public static List<String> jsonNames(Class<?> recordType) {
        return JSON_NAMES.get(recordType);
    }

    private static Field field(RecordComponent c) {
        boolean primitive = c.getType().isPrimitive();
        return new Field(
                SNAKE.translate(c.getName()),
                c.getGenericType(),
                primitive || !c.isAnnotationPresent(Nullable.class),
                c.isAnnotationPresent(Text.class),
                c.isAnnotationPresent(NonNegative.class));
    }

    public static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        throw new IllegalArgumentException("unsupported type " + type);
    }

    /** The element type of a List, or the value type of a Map. */
    public static Type typeArgument(Type type, int index) {
        return ((ParameterizedType) type).getActualTypeArguments()[index];
    }

    public static boolean isMap(Class<?> c) {
        return Map.class.isAssignableFrom(c);
    }

    /** For a polymorphic sealed interface such as ClaimValue: the property naming the subtype. */
    public static Optional<String> typeProperty(Class<?> c) {
        JsonTypeInfo info = c.getAnnotation(JsonTypeInfo.class);
        return info == null ? Optional.empty() : Optional.of(info.property());
    }

    /** The subtypes of a polymorphic sealed interface by their JSON names. */
    public static Map<String, Class<?>> subtypes(Class<?> c) {
        JsonSubTypes sub = c.getAnnotation(JsonSubTypes.class);
        LinkedHashMap<String, Class<?>> m = new LinkedHashMap<>();
        for (JsonSubTypes.Type t : sub.value()) {
            m.put(t.name(), t.value());
        }
        return m;
    }
}
