package dev.podium.ingest.command.problem;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * One broken rule of a request: the field as the client wrote it ({@code spec.repetitions}, {@code pools[1]},
 * {@code secrets.HF_TOKEN}; {@code $} for the body itself) and what is wrong with it. The message never holds the value.
 */
public record FieldViolation(String field, String message) {

    /** The field that stands for the whole body. */
    public static final String BODY = "$";

    private static final PropertyNamingStrategies.NamingBase SNAKE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    /**
     * A Bean Validation violation named the way the body names it: Java names in snake_case as the JSON has them, list
     * indexes and map keys as written; the method and parameter of a resource are left out.
     */
    public static FieldViolation of(ConstraintViolation<?> violation) {
        StringBuilder field = new StringBuilder();
        for (Path.Node node : violation.getPropertyPath()) {
            if (node.getKind() == ElementKind.METHOD
                    || node.getKind() == ElementKind.PARAMETER
                    || node.getKind() == ElementKind.CONSTRUCTOR
                    || node.getKind() == ElementKind.CROSS_PARAMETER) {
                continue;
            }
            if (node.isInIterable()) {
                if (node.getIndex() != null) {
                    field.append('[').append(node.getIndex()).append(']');
                } else if (node.getKey() != null) {
                    field.append('.').append(node.getKey());
                }
            }
            if (node.getKind() == ElementKind.PROPERTY) {
                field.append('.').append(SNAKE.translate(node.getName()));
            }
        }
        String name = field.length() > 0 && field.charAt(0) == '.' ? field.substring(1) : field.toString();
        return new FieldViolation(name.isEmpty() ? BODY : name, violation.getMessage());
    }

    /** The order of violations in an answer, by field: the same request always gets the same answer. */
    public static final Comparator<FieldViolation> BY_FIELD =
            Comparator.comparing(FieldViolation::field).thenComparing(FieldViolation::message);

    /** Bean Validation's violations, which come as a set, by field. */
    public static List<FieldViolation> all(Collection<? extends ConstraintViolation<?>> violations) {
        return violations.stream()
                .map(FieldViolation::of)
                .sorted(BY_FIELD)
                .distinct()
                .toList();
    }

    /** True when this names {@code other} or a field inside it. */
    public boolean covers(String other) {
        return other.equals(field) || other.startsWith(field + ".") || other.startsWith(field + "[");
    }
}
